import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'

const repo = join(import.meta.dirname, '..', '..')

/** The first ```ts block under "## Quickstart" in the README, exactly as a reader copies it. */
function quickstart(): string {
  const readme = readFileSync(join(repo, 'README.md'), 'utf8')
  const match = /```ts\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('## Quickstart')))
  if (!match?.[1]) throw new Error('README has no ```ts block under ## Quickstart')
  return match[1]
}

function run(command: string, args: string[], cwd: string): string {
  try {
    return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  } catch (error) {
    const e = error as Error & { stdout?: string; stderr?: string }
    throw new Error(`${command} ${args.join(' ')} failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`.slice(0, 4000))
  }
}

const consumerTs = `import { createSimulator, type Simulator, verifySignature } from 'service-sim'
import { runScenario } from 'service-sim/harness'
const sim: Simulator = createSimulator({ seed: 1 })
const now: number = sim.clock.now
export { now, runScenario, verifySignature }
`

const consumerMjs = `import { createSimulator } from 'service-sim'
const sim = createSimulator({ seed: 1 })
// nock is an optional peer and is not installed here: the core must not need it...
const loaded = Object.keys(await import('node:module').then((m) => m.createRequire(import.meta.url).cache ?? {}))
console.log(loaded.some((p) => p.includes('/nock/')) ? 'nock-loaded' : 'nock-absent')
// ...and intercept() says what is missing.
console.log(await sim.intercept().then(() => 'intercepted', (e) => e.message))
`

describe('the packed package', () => {
  it('installs from its tarball into a fresh project and runs the README quickstart there', async () => {
    const work = mkdtempSync(join(tmpdir(), 'service-sim-pack-'))
    try {
      // Pack from a copy of the sources: npm pack runs prepack, which builds dist with tsc there,
      // so the repository's own dist (which bin/service-sim.js prefers) is never touched.
      const copy = join(work, 'repo')
      mkdirSync(copy)
      for (const entry of [
        'package.json',
        'tsconfig.json',
        'tsconfig.build.json',
        'README.md',
        'src',
        'scripts',
        'bin',
        'scenarios',
      ]) {
        cpSync(join(repo, entry), join(copy, entry), { recursive: true })
      }
      symlinkSync(join(repo, 'node_modules'), join(copy, 'node_modules'), 'dir')
      run('npm', ['pack', '--pack-destination', work, '--silent'], copy)
      const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'))
      expect(tarball).toBeDefined()
      const app = join(work, 'app')
      mkdirSync(app)
      writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }))
      run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', join(work, tarball!)], app)
      const shipped = readdirSync(join(app, 'node_modules', 'service-sim'))
      expect(shipped).toContain('dist')
      expect(shipped).not.toContain('src')

      writeFileSync(join(app, 'quickstart.mjs'), quickstart())
      const [status, hash] = run(process.execPath, ['quickstart.mjs'], app).trim().split('\n')
      expect(status).toBe('401')
      expect(hash).toMatch(/^[0-9a-f]{64}$/)

      // The built package replays the same run as the sources: same seed, same trace hash.
      const dir = join(repo, 'test', '.generated')
      mkdirSync(dir, { recursive: true })
      const file = join(dir, 'pack-quickstart.ts')
      writeFileSync(file, `${quickstart()}\nexport {}\n`)
      const logs: unknown[][] = []
      const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void logs.push(args))
      try {
        await import(/* @vite-ignore */ `${file}?pack=1`)
      } finally {
        spy.mockRestore()
      }
      expect(String(logs[1]?.[0])).toBe(hash)

      writeFileSync(join(app, 'consumer.mjs'), consumerMjs)
      const [nock, intercept] = run(process.execPath, ['consumer.mjs'], app).trim().split('\n')
      expect(nock).toBe('nock-absent')
      expect(intercept).toMatch(/optional peer dependency 'nock'/)

      // Its types resolve for a NodeNext TypeScript consumer.
      writeFileSync(join(app, 'consumer.ts'), consumerTs)
      writeFileSync(
        join(app, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            lib: ['ES2023', 'DOM'],
            types: [],
          },
          files: ['consumer.ts'],
        }),
      )
      run(process.execPath, [join(repo, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], app)
    } finally {
      rmSync(work, { recursive: true, force: true })
    }
  }, 120_000)
})
