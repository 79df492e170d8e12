/**
 * Waits `ms` of real time, even when a user has installed fake timers globally (`clock: 'global'`):
 * `AbortSignal.timeout` runs on node's internal timers, which fake-timers does not replace. Only
 * for waiting on something outside the simulation, such as an app on a port finishing its work;
 * nothing the simulation decides may depend on it.
 *
 * @example
 * await wallPause(25) // 25 real milliseconds, whatever the virtual clock does
 */
export function wallPause(ms: number): Promise<void> {
  return new Promise<void>((resolve) => AbortSignal.timeout(ms).addEventListener('abort', () => resolve()))
}
