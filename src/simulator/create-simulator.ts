import type { IncomingExchangeHandler } from '#http/handler.js'
import { fromPlain } from '#kernel/plain.js'
import type { Simulator } from './simulator.js'
import { SimulatorInstance } from './simulator-instance.js'
import { SimulatorInternals } from './simulator-internals.js'
import { type ContinueOptions, checkSimulatorOptions, type SimulatorOptions } from './simulator-options.js'
import { buildSimulatorParts } from './simulator-parts.js'
import { type Capture, checkSnapshot, type SnapshotOptions } from './snapshot.js'

export type { FaultInjection, Platform, Simulator } from './simulator.js'
export { type ContinueOptions, DEFAULT_API_VERSION, type SimulatorOptions } from './simulator-options.js'
export type { Snapshot } from './snapshot.js'

/**
 * Creates a simulator. Every option has a default.
 *
 * @example
 * import { createSimulator } from 'service-sim'
 * const sim = createSimulator({ seed: 42 })
 * const res = await sim.fetch('https://api.service.test/v1/account', {
 *   headers: { Authorization: `Bearer ${sim.platform.secretKey.test}` },
 * })
 */
export function createSimulator(options: SimulatorOptions = {}): Simulator {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new TypeError(
      `createSimulator: options must be an object, got ${options === null ? 'null' : Array.isArray(options) ? 'an array' : typeof options}`,
    )
  if (options.from !== undefined) {
    const snapshot = checkSnapshot(options.from)
    const extra = Object.keys(options).filter((k) => k !== 'from' && k !== 'clock')
    if (extra.length > 0) {
      throw new TypeError(
        `createSimulator: option(s) ${extra.map((k) => `'${k}'`).join(', ')} cannot be given with 'from': a snapshot carries its options`,
      )
    }
    return build(
      { ...fromPlain<SnapshotOptions>(snapshot.options), ...(options.clock ? { clock: options.clock } : {}) },
      {
        now: snapshot.now,
        rng: snapshot.rng,
        trace: snapshot.trace,
        state: snapshot.state,
        tasks: snapshot.tasks,
        receivers: undefined,
      },
    )
  }
  return build(options, undefined)
}

function build(options: SimulatorOptions, from: Capture | undefined): SimulatorInstance {
  // A fork's options are its original's, validated when that one was built.
  if (from?.copied !== true) checkSimulatorOptions(options)
  const parts = buildSimulatorParts(options, from)
  return new SimulatorInstance(parts, new SimulatorInternals(parts, options), build)
}

/**
 * Declares a simulator that is only forked from now on (a prepared setup every property run forks):
 * its in-process capture is made once and loaded by every fork while its state stays as it was,
 * instead of being made again per fork. Changing it is still safe: a fork after a request, a
 * clock move or `continueAs` captures again, the receivers and the fault controller's part are
 * taken per fork, and reading `sim.admin` ends the keeping (a simulator whose admin was read
 * before is not kept). Internal to the package.
 *
 * @example
 * keepForForks(prepared)
 * const run = prepared.fork({ seed: 7 })
 */
export function keepForForks(sim: Simulator): void {
  SimulatorInstance.internalsOf(sim, 'keepForForks').keep()
}

/**
 * Continues a simulator in place with another seed and fault policy: every random stream restarts
 * from `seed`, the policy of `faults` (resolved with the restarted `faults` stream) is in force,
 * and a snapshot records both. A run that prepares a simulator once and forks it per run
 * (`sim.fork(next)`) and a run that builds and prepares its own then continues it this way reach
 * the same state and the same trace hash. Taken at rest, like a snapshot.
 *
 * @example
 * const sim = createSimulator({ seed: 'setup' })
 * // ... setup requests ...
 * continueAs(sim, { seed: 42, faults: { preset: 'realistic' } })
 */
export function continueAs(sim: Simulator, next: ContinueOptions): void {
  SimulatorInstance.internalsOf(sim, 'continueAs').continueWith(next)
}

/**
 * The exchange of a request its server has already read (URL, header reader, body text): how
 * `service-sim serve` and `replay --served` answer (from plain exchanges; the public surface stays
 * `fetch`). Internal to the package.
 *
 * @example
 * const { status } = await incomingExchangeOf(sim)({ method: 'GET', url, headers: lowercaseHeaderReader(req.headers), text: '' })
 */
export function incomingExchangeOf(sim: Simulator): IncomingExchangeHandler {
  return SimulatorInstance.internalsOf(sim, 'incomingExchangeOf').exchange
}
