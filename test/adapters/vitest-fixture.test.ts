import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect } from 'vitest'
import { seedFromName, test } from '../../src/vitest/index.js'

describe('service-sim/vitest', () => {
  test('gives each test a simulator seeded from its full name', ({ sim }) => {
    expect(sim.seed).toBe(String(seedFromName('service-sim/vitest > gives each test a simulator seeded from its full name')))
  })

  test('gives a fresh simulator to every test', async ({ sim }) => {
    expect(sim.trace.filter('http')).toHaveLength(0)
    const res = await sim.fetch('/v1/account', { headers: { Authorization: `Bearer ${sim.platform.secretKey.test}` } })
    expect(res.status).toBe(200)
  })
})

describe('service-sim/vitest with scoped options', () => {
  test.override({ simOptions: { headerPrefix: 'Stripe', seed: 7 } })
  test('takes options from test.scoped', ({ sim }) => {
    expect(sim.seed).toBe('7')
    expect(sim.service.kernel.prefix).toBe('Stripe')
  })
})

describe('seedFromName', () => {
  test('is stable and tells names apart', () => {
    expect(seedFromName('a test')).toBe(seedFromName('a test'))
    expect(seedFromName('a test')).not.toBe(seedFromName('a test!'))
    expect(seedFromName('')).toBe(0x811c9dc5)
  })
})

describe('a failing test', () => {
  // Runs vitest on a scratch test file in a child process: the failure report, the seed pin and
  // the cleanup of a global clock and interception are only observable from outside the test.
  test('prints the seed and a replay command that pins the same seed, and cleans up', () => {
    // Inside node_modules so that 'vitest' resolves from the scratch file; outside test/ so the
    // suite's own include never picks it up.
    const cache = join(process.cwd(), 'node_modules/.cache')
    mkdirSync(cache, { recursive: true })
    const dir = mkdtempSync(join(cache, 'sim-fixture-'))
    writeFileSync(join(dir, 'vitest.config.mjs'), "export default { test: { include: ['*.scratch.ts'] } }\n")
    const fixture = join(process.cwd(), 'src/vitest/index.ts')
    const file = join(dir, 'failing.scratch.ts')
    writeFileSync(
      file,
      `import { expect, describe, test as plain } from 'vitest'
import { test } from ${JSON.stringify(fixture)}
const realDate = Date
const realFetch = globalThis.fetch
describe('outer', () => {
  test.override({ simOptions: { clock: 'global' } })
  test('fails on purpose', async ({ sim }) => {
    await sim.intercept()
    console.log('SEED ' + sim.seed)
    expect(Date).not.toBe(realDate)
    expect(sim.seed).toBe('never')
  })
})
plain('runs after the failing test', () => {
  console.log('CLEAN ' + (Date === realDate) + ',' + (globalThis.fetch === realFetch) + ';')
})
`,
    )
    const run = (env: Record<string, string>) => {
      try {
        execFileSync(process.execPath, [join(process.cwd(), 'node_modules/vitest/vitest.mjs'), 'run'], {
          cwd: dir,
          env: { ...process.env, ...env },
          encoding: 'utf8',
          stdio: 'pipe',
        })
        return ''
      } catch (error) {
        const e = error as { stdout: string; stderr: string }
        return e.stdout + e.stderr
      }
    }
    const out = run({})
    const seed = seedFromName('outer > fails on purpose')
    expect(out).toContain(`SEED ${seed}`)
    expect(out).toContain(`failed with seed ${seed}`)
    expect(out).toContain(`SERVICE_SIM_SEED=${seed} npx vitest run`)
    expect(out).toContain(`-t 'outer fails on purpose$'`)
    expect(out).toContain('CLEAN true,true;')
    const replay = run({ SERVICE_SIM_SEED: '12345' })
    expect(replay).toContain('SEED 12345')
    rmSync(dir, { recursive: true, force: true })
  }, 60_000)
})
