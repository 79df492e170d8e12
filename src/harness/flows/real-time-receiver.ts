import type { Simulator } from '#simulator/index.js'

// Simulators whose flow receiver is an app outside the process, answering on the wall clock.
const outside = new WeakSet<Simulator>()

/**
 * Notes that the run's receiver answers in real time (an app on a port): what the harness sends
 * it outside the provider's deliveries (a forgery) is awaited as the deliveries are, not timed
 * out on the virtual clock while the app is still answering.
 *
 * @example
 * answersInRealTime(run.sim)
 */
export function answersInRealTime(sim: Simulator): void {
  outside.add(sim)
}

/**
 * Whether the run's receiver answers in real time ({@link answersInRealTime}).
 *
 * @example
 * const wall = receiverOnWallClock(sim) // true for an app on a port
 */
export function receiverOnWallClock(sim: Simulator): boolean {
  return outside.has(sim)
}
