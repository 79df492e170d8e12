import { holdDeterministicWebCrypto } from '../run/deterministic-web-crypto.js'
import { HarnessInputError, shownValue } from '../validate-input.js'
import type { FlowRunOptions } from './flow-run.js'

// What a flow run changes in its own process for the app it mounts there, undone when the run ends
// (every way it ends): Web Crypto's HMAC and digest answering at once (the global clock is
// wall-clock-receiver.ts's).

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
