import { dirname, resolve } from 'node:path'
import { loadScenarioFile } from '#harness/scenario/load-scenario.js'
import { runScenarioOn } from '#harness/scenario/run-scenario.js'
import { callerNow } from '#kernel/index.js'
import { createSimulator, type Simulator } from '#simulator/index.js'
import { loadFixtureFile } from './fixture-file.js'
import { type ForwardDestination, setUpForwarding } from './serve-forwarding.js'
import { SERVE_HEADER_PREFIX, type ServeOptions } from './serve-options.js'
import { backupPath } from './state-file.js'
import { UsageError } from './usage-error.js'

/** What the served simulator's forwarding made: the destinations of the simulator built last. */
export interface ServedForwarding {
  forwarded: ForwardDestination[]
}

/** The saved run goes on: its options, ids and virtual time (a wall clock follows real time from there). */
function fromState(o: ServeOptions, saved: NonNullable<ServeOptions['saved']>, stateFile: string): Simulator {
  let built: Simulator
  try {
    built = createSimulator({ from: saved })
  } catch (error) {
    throw new UsageError(`--state: ${stateFile}: ${(error as Error).message}`)
  }
  if (o.fellBack)
    process.stdout.write(`${stateFile} is missing or unreadable: loading the save before it, ${backupPath(stateFile)}\n`)
  process.stdout.write(
    `state loaded from ${stateFile} (virtual time ${new Date(built.clock.now).toISOString()}; seed, limits and header prefix are the saved run's)\n`,
  )
  return built
}

/** The scenario's simulator after its run; a wall clock starts it now unless the scenario says when. */
async function fromScenario(o: ServeOptions, file: string, announce: boolean): Promise<Simulator> {
  const loaded = loadScenarioFile(file)
  const scenario = {
    ...loaded,
    header_prefix: o.headerPrefix ?? loaded.header_prefix ?? SERVE_HEADER_PREFIX,
    ...(o.clock.mode === 'wall' && loaded.start === undefined ? { start: new Date(callerNow()).toISOString() } : {}),
  }
  const run = await runScenarioOn(scenario, {
    ...(o.seed === undefined ? {} : { seed: o.seed }),
    baseDir: dirname(resolve(file)),
  })
  if (announce)
    process.stdout.write(
      `scenario ${scenario.name}: ${run.result.steps.length} steps run, ${run.result.ok ? 'expectations hold' : 'some expectations violated'}\n`,
    )
  return run.sim
}

/** A fresh simulator from the options; with a wall clock virtual time starts now, so signatures pass a real app's tolerance check. */
function fresh(o: ServeOptions): Simulator {
  // A server runs for as long as someone uses it: keep the last 100,000 trace entries in memory
  // (the hash still covers every one).
  return createSimulator({
    seed: o.seed ?? 0,
    traceLimit: 100_000,
    ...(o.clock.mode === 'wall' ? { start: callerNow() } : {}),
    headerPrefix: o.headerPrefix ?? SERVE_HEADER_PREFIX,
    ...(o.noLimits ? { limits: false as const } : {}),
    ...(o.apiVersion === undefined ? {} : { apiVersion: o.apiVersion }),
  })
}

/**
 * Builds the simulator `serve` serves: the saved run of `--state` (only at start: a reset builds
 * anew), else the scenario's, else a fresh one; then its forwarding (recorded in `forwarding`) and
 * the fixtures. `announce` prints what was loaded (at start, not on a reset).
 *
 * @example
 * const forwarding: ServedForwarding = { forwarded: [] }
 * const sim = await buildServedSimulator(options, forwarding, true)
 */
export async function buildServedSimulator(o: ServeOptions, forwarding: ServedForwarding, announce: boolean): Promise<Simulator> {
  const { saved, stateFile } = o
  const loadState = announce && saved !== undefined && stateFile !== undefined
  const built = loadState
    ? fromState(o, saved, stateFile)
    : o.scenario !== undefined
      ? await fromScenario(o, o.scenario, announce)
      : fresh(o)
  forwarding.forwarded = o.forward === undefined ? [] : setUpForwarding(built, o.forward)
  // After forwarding, so the fixtures' events reach the app as the provider's CLI would send them.
  // A loaded state already holds what its run's fixtures made: running them again would duplicate it.
  const stateLoaded = announce && saved !== undefined
  if (stateLoaded && o.fixtureFiles.length > 0) process.stdout.write('fixtures not run: the state loaded already holds them\n')
  for (const file of stateLoaded ? [] : o.fixtureFiles) {
    const count = await loadFixtureFile(built, file)
    if (announce) process.stdout.write(`fixtures ${file}: ${count} requests run\n`)
  }
  return built
}
