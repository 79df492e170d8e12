import { createClock } from '#kernel/index.js'
import type { Simulator } from '#simulator/index.js'
import { holdDeterministicWebCrypto } from '../run/deterministic-web-crypto.js'
import { HarnessInputError, shownValue } from '../validate-input.js'
import type { FlowRunOptions } from './flow-run.js'

// What a flow run changes in its own process for the app it mounts there, undone when the run ends
// (every way it ends): the global clock, and Web Crypto's HMAC and digest answering at once.

/** Each run's release of the deterministic Web Crypto it holds. */
const cryptoHolds = new WeakMap<object, () => void>()

/**
 * Holds deterministic Web Crypto for a run (unless `deterministicCrypto: false`) until
 * {@link releaseRunCrypto}: an app in process that verifies deliveries with `crypto.subtle` then
 * resumes in the same order every run.
 *
 * @example
 * holdRunCrypto(run, options) // before the app is deployed: a key it imports at start is made inside
 */
export function holdRunCrypto(run: object, options: Pick<FlowRunOptions, 'deterministicCrypto'>): void {
  if (options.deterministicCrypto !== false && !cryptoHolds.has(run)) cryptoHolds.set(run, holdDeterministicWebCrypto())
}

/**
 * Gives back a run's hold of deterministic Web Crypto, if it has one (at the run's end; at once for
 * an app on a port, which runs in its own process on the real clock anyway). Once is enough.
 *
 * @example
 * releaseRunCrypto(run)
 */
export function releaseRunCrypto(run: object): void {
  cryptoHolds.get(run)?.()
}

/**
 * Refuses a `deterministicCrypto` that is not a boolean, naming the API.
 *
 * @example
 * refuseBadDeterministicCrypto('runFlow', 'no') // throws: option 'deterministicCrypto' must be true or false
 */
export function refuseBadDeterministicCrypto(api: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'boolean')
    throw new HarnessInputError(`${api}: option 'deterministicCrypto' must be true or false, got ${shownValue(value)}`)
}

/**
 * With `simOptions: { clock: 'global' }`, the global clock is installed for the run and brought to
 * the run's time before each delivery (an app reading its own clock); the run's clock stays local.
 *
 * @example
 * const { receive, uninstall } = onWallClock(options, sim, handler)
 */
export function onWallClock(options: FlowRunOptions, sim: Simulator, receive: (r: Request) => Promise<Response>) {
  if (options.simOptions?.clock !== 'global') return { receive, uninstall: () => {} }
  const wall = createClock({ clock: 'global', start: sim.clock.now })
  const synced = (request: Request) => {
    wall.setSystemTime(sim.clock.now)
    return receive(request)
  }
  return { receive: synced, uninstall: () => void wall.uninstall() }
}
