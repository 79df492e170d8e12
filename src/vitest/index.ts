/**
 * `service-sim/vitest`: a `test` with a fresh simulator per test, seeded from the test's name.
 *
 * @module service-sim/vitest
 */
import { relative } from 'node:path'
import { test as base } from 'vitest'
import { createSimulator, type Simulator, type SimulatorOptions } from '#simulator/index.js'
import { seedFromName } from './seed-from-name.js'

export { seedFromName } from './seed-from-name.js'

/** Environment variable that pins the seed of every `sim` fixture (the replay command sets it). */
export const SEED_ENV = 'SERVICE_SIM_SEED'

/** The fixtures `service-sim/vitest` adds to the test context. */
export interface SimFixtures {
  /** Options of each test's simulator; override with `test.override({ simOptions })` (vitest 4.1+; `test.scoped` before) or `test.extend`. */
  simOptions: SimulatorOptions
  /** A fresh simulator for this test, seeded from the test's name. */
  sim: Simulator
}

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}

/** vitest's `-t` matches the suite and test names joined by spaces (after the file name). */
function namePattern(task: { name: string; suite?: unknown }): string {
  const chain = [task.name]
  let suite = task.suite as { name: string; suite?: unknown; filepath?: string } | undefined
  while (suite !== undefined && suite.filepath === undefined) {
    chain.unshift(suite.name)
    suite = suite.suite as typeof suite
  }
  return `${escapeRegExp(chain.join(' '))}$`
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * `test` with a `sim` fixture: each test gets a fresh simulator whose seed is derived from the
 * test's full name (or taken from `SERVICE_SIM_SEED`), the seed and a replay command are printed
 * when the test fails, and interception and a global clock are undone after the test.
 *
 * @example
 * import { test } from 'service-sim/vitest'
 * import { expect } from 'vitest'
 * test('reports usage', async ({ sim }) => {
 *   const res = await sim.fetch('/v1/account', { headers: { Authorization: `Bearer ${sim.platform.secretKey.test}` } })
 *   expect(res.status).toBe(200)
 * })
 */
export const test = base.extend<SimFixtures>({
  simOptions: {},
  sim: async ({ task, simOptions, onTestFailed }, use) => {
    const name = task.fullTestName ?? task.name
    const pinned = process.env[SEED_ENV]
    const seed = simOptions.seed ?? (pinned !== undefined && pinned !== '' ? pinned : seedFromName(name))
    const sim = createSimulator({ ...simOptions, seed })
    onTestFailed(() => {
      const file = task.file?.filepath ? relative(process.cwd(), task.file.filepath) : ''
      console.error(
        `service-sim: '${name}' failed with seed ${sim.seed} (trace ${sim.trace.hash()}).\n` +
          `  replay: ${SEED_ENV}=${sim.seed} npx vitest run ${file} -t ${quote(namePattern(task))}`,
      )
    })
    try {
      await use(sim)
    } finally {
      sim.restore()
      // Only a clock the fixture installed is uninstalled; an injected clock belongs to the caller.
      if (simOptions.clock === 'global') sim.clock.uninstall()
    }
  },
})

/** Alias of `test`. */
export const it = test

export { createSimulator, type Simulator, type SimulatorOptions }
