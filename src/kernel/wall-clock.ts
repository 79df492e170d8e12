/**
 * The caller's current time, read from the global `Date` (real, or faked when the caller installed
 * fake timers globally). Simulation code never uses it: the service reads `clock.now`. It exists for
 * utilities that run in the user's receiver, such as `verifySignature` without a `now` option,
 * which must behave like the official libraries there.
 *
 * @example
 * const seconds = Math.floor(callerNow() / 1000)
 */
export function callerNow(): number {
  return Date.now()
}
