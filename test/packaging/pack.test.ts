import { execFileSync, spawn } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Stripe from 'stripe'
import { describe, expect, it, vi } from 'vitest'
import { startOneSecretApp } from '../serve/one-secret-app.js'
import { machinePathLines } from './machine-paths.js'

const repo = join(import.meta.dirname, '..', '..')

/** The first ```ts block under a README heading, exactly as a reader copies it. */
function readmeBlock(heading: string): string {
  const readme = readFileSync(join(repo, 'README.md'), 'utf8')
  const at = readme.indexOf(`\n${heading}\n`)
  const match = at < 0 ? null : /```ts\n([\s\S]*?)```/.exec(readme.slice(at))
  if (!match?.[1]) throw new Error(`README has no \`\`\`ts block under ${heading}`)
  return match[1]
}

const quickstart = () => readmeBlock('## Quickstart')

/** Every file under `dir`, relative to it. */
function walk(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix)).flatMap((name) => {
    const rel = prefix === '' ? name : `${prefix}/${name}`
    return statSync(join(dir, rel)).isDirectory() ? walk(dir, rel) : [rel]
  })
}

/** The packages installed in `nodeModules` (scoped ones by their full name). */
function installedPackages(nodeModules: string): string[] {
  return readdirSync(nodeModules)
    .filter((name) => !name.startsWith('.'))
    .flatMap((name) => (name.startsWith('@') ? readdirSync(join(nodeModules, name)).map((sub) => `${name}/${sub}`) : [name]))
}

/** Kilobytes under `dir`, as allocated on disk or as the files' own sizes. */
function kilobytes(dir: string, apparent: boolean): number {
  const out = execFileSync('du', ['-sk', ...(apparent ? ['--apparent-size'] : []), dir], { encoding: 'utf8' })
  return Number(out.split('\t')[0])
}

function run(command: string, args: string[], cwd: string): string {
  try {
    return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  } catch (error) {
    const e = error as Error & { stdout?: string; stderr?: string }
    throw new Error(`${command} ${args.join(' ')} failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`.slice(0, 4000))
  }
}

/**
 * The installed `service-sim serve` with no flags but a free port, as a user starts it: the
 * official client makes a webhook endpoint and a customer, and the forwarded event must pass
 * `Stripe.webhooks.constructEvent` with the endpoint's secret.
 */
async function servedWebhookVerifies(
  bin: string,
  cwd: string,
): Promise<{ banner: string; verified: string[]; refused: string[] }> {
  const child = spawn(bin, ['serve', '--port', '0'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] })
  const app = await startOneSecretApp({ path: '/webhook' })
  try {
    let banner = ''
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        banner += d.toString()
        const m = /127\.0\.0\.1:(\d+)[\s\S]*Press Ctrl-C/.exec(banner)
        if (m) resolve(Number(m[1]))
      })
      child.on('exit', () => reject(new Error(banner)))
    })
    const key = /secret key (\S+)/.exec(banner)?.[1] ?? ''
    const stripe = new Stripe(key, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 })
    const endpoint = await stripe.webhookEndpoints.create({ url: app.url, enabled_events: ['customer.created'] })
    app.useSecret(endpoint.secret ?? '')
    await stripe.customers.create({ email: 'packed@example.com' })
    for (let waited = 0; app.verified.length + app.refused.length === 0 && waited < 10_000; waited += 25)
      await new Promise((r) => setTimeout(r, 25))
    return { banner, verified: app.verified.map((e) => e.type), refused: app.refused }
  } finally {
    child.kill('SIGINT')
    await app.close()
  }
}

const consumerTs = `import { createSimulator, type FaultsInput, type Simulator, verifySignature } from 'service-sim'
import { checkWebhookReceiver, type FaultEntry, referenceWebhookReceiver, runScenario, type Scenario } from 'service-sim/harness'
// The types that mirror the package's schemas, as a user writes them.
const faults: FaultsInput = { policy: { rates: { rate_limit: 0.1 } }, schedule: [{ step: 2, fault: 'receiver_slow', delay: '2s' }] }
const entry: FaultEntry = { step: 1, fault: 'server_error', count: 2 }
const steps = (scenario: Scenario): number => scenario.workload.length + scenario.faults.schedule.length
const sim: Simulator = createSimulator({ seed: 1, headerPrefix: 'Stripe', faults })
const now: number = sim.clock.now
// The sleep the guides show: a promise's resolve is a timer callback.
async function sleep(ms: number): Promise<void> {
  await new Promise<void>((resolve) => sim.clock.setTimeout(resolve, ms))
}
const check = () => checkWebhookReceiver(referenceWebhookReceiver, { headerPrefix: 'Stripe', apiVersion: '2025-03-31.basil', base: sim })
export { check, entry, now, runScenario, sleep, steps, verifySignature }
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
  it('installs from its tarball into a fresh app that follows the README: quickstart, first test, property test, bundled replay by name, serve as started with a verified webhook', async () => {
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
        'CHANGELOG.md',
        'LICENSE',
        'typedoc.json',
        'src',
        'scripts',
        'bin',
        'scenarios',
        'docs',
        'examples',
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
      const installed = join(app, 'node_modules', 'service-sim')
      const shipped = readdirSync(installed)
      expect(shipped).toContain('dist')
      expect(shipped).not.toContain('src')
      expect(shipped).toEqual(expect.arrayContaining(['docs', 'examples', 'LICENSE', 'README.md', 'CHANGELOG.md', 'scenarios']))
      // The API reference prepack generates from the TSDoc ships beside the guides.
      expect(existsSync(join(installed, 'docs', 'api', 'index.md'))).toBe(true)
      expect(existsSync(join(installed, 'docs', 'api', 'service-sim', 'harness.md'))).toBe(true)
      expect(machinePathLines(installed, walk(installed))).toEqual([])

      // What the install brings: the package and its runtime dependencies only, zod not among
      // them (its code is bundled; the declarations name hand-written types), within the target.
      const nodeModules = join(app, 'node_modules')
      const packages = installedPackages(nodeModules)
      expect(packages).not.toContain('zod')
      expect(() => createRequire(join(installed, 'package.json')).resolve('zod')).toThrow()
      const declarations = walk(installed).filter((f) => f.endsWith('.d.ts'))
      expect(
        declarations.filter((f) => /from ['"]zod['"]|import\(['"]zod['"]\)/.test(readFileSync(join(installed, f), 'utf8'))),
      ).toEqual([])
      expect(packages.length).toBeLessThanOrEqual(30)
      expect(kilobytes(nodeModules, false)).toBeLessThanOrEqual(15 * 1024)
      expect(kilobytes(nodeModules, true)).toBeLessThanOrEqual(15 * 1024)
      process.stdout.write(
        `installed footprint: ${packages.length} packages, ${kilobytes(nodeModules, false)} KB on disk, ${kilobytes(nodeModules, true)} KB apparent\n`,
      )

      // The user's own dev dependencies (the README's install line), from the repository's
      // node_modules: no network beyond what npm ci fetched.
      for (const dep of ['stripe', 'vitest', 'fast-check'])
        symlinkSync(join(repo, 'node_modules', dep), join(app, 'node_modules', dep), 'dir')

      // A fresh app following the README: its first test and its property test, through the
      // public entry points of the installed package.
      mkdirSync(join(app, 'test'))
      writeFileSync(join(app, 'test', 'first.test.ts'), readmeBlock('## A first test'))
      writeFileSync(join(app, 'test', 'webhooks.property.test.ts'), readmeBlock('## A property test for your webhook handler'))
      const tests = run(
        process.execPath,
        [join(app, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--reporter', 'verbose'],
        app,
      ).replace(
        // biome-ignore lint/suspicious/noControlCharactersInRegex: the colour codes of the child's output
        /\u001b\[[0-9;]*m/g,
        '',
      )
      expect(tests).toMatch(/creates a customer and lists it by email/)
      expect(tests).toMatch(/catches the receiver that forgets to deduplicate/)
      expect(tests).toMatch(/Tests\s+3 passed/)

      // A bundled scenario replayed by name, its report in the folder the docs name.
      const bin = join(app, 'node_modules', '.bin', 'service-sim')
      expect(run(bin, ['scenarios'], app)).toMatch(/^usage-to-invoice +A month of usage/m)
      const replay = run(bin, ['replay', 'usage-to-invoice', '--quiet'], app)
      expect(replay).toMatch(
        /usage-to-invoice seed 7 \(trace [0-9a-f]{16}\): all \d+ expectations hold; report in \.service-sim\/reports\/usage-to-invoice\/7/,
      )
      expect(existsSync(join(app, '.service-sim', 'reports', 'usage-to-invoice', '7', 'report.html'))).toBe(true)
      expect(existsSync(join(app, 'reports'))).toBe(false)

      // serve as installed and started with no flags: the official client verifies its webhooks.
      const served = await servedWebhookVerifies(bin, app)
      expect(served.banner).toMatch(/header prefix Stripe/)
      expect(served.refused).toEqual([])
      expect(served.verified).toEqual(['customer.created'])

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

      // Its types resolve for a NodeNext TypeScript consumer, every shipped declaration checked
      // (skipLibCheck off), with no zod anywhere the compiler could find one.
      writeFileSync(join(app, 'consumer.ts'), consumerTs)
      writeFileSync(
        join(app, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            strict: true,
            noEmit: true,
            skipLibCheck: false,
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
  }, 300_000)
})
