import FakeTimers from '@sinonjs/fake-timers'

/**
 * A timer callback as Node's and the DOM's `setTimeout` take it: any function, a promise's
 * `resolve` included (fake-timers' own declarations only take `(...args: unknown[]) => void`, which
 * refuses `new Promise<void>((resolve) => clock.setTimeout(resolve, ms))`).
 */
export type TimerCallback = (...args: never[]) => unknown

/**
 * The clock type of `@sinonjs/fake-timers` (`now`, `tickAsync`, `runToLastAsync`, `Date`, timers),
 * whose `setTimeout` and `setInterval` take any callback, as the global ones do.
 *
 * @example
 * await new Promise<void>((resolve) => sim.clock.setTimeout(resolve, 1_000))
 */
export type Clock = FakeTimers.Clock & {
  setTimeout(callback: TimerCallback, delay?: number, ...args: unknown[]): ReturnType<FakeTimers.Clock['setTimeout']>
  setInterval(callback: TimerCallback, delay?: number, ...args: unknown[]): ReturnType<FakeTimers.Clock['setInterval']>
}

export interface ClockOptions {
  /** Virtual start time, epoch milliseconds or a date string. Default `2026-01-01T00:00:00.000Z`. */
  start?: number | string | Date
  /**
   * `'local'` (default) makes a clock that only the simulator uses. `'global'` installs it on
   * `globalThis` (timers and `Date`) so that client code under test sleeps on the same timeline;
   * `sim.clock.uninstall()` restores the real ones. A clock object made by the caller is used as is.
   */
  clock?: 'local' | 'global' | Clock
}

export const DEFAULT_START = Date.UTC(2026, 0, 1)

// Bound once, when the kernel loads: the real globals, and no per-simulator rebuild of the
// fake-timers API.
const timers = FakeTimers.withGlobal(globalThis)

/**
 * Creates the one clock of a simulation.
 *
 * @example
 * const clock = createClock({ start: '2026-03-01T00:00:00Z' })
 * await clock.tickAsync(15 * 60_000)
 */
export function createClock(options: ClockOptions = {}): Clock {
  const start = toEpoch(options.start)
  const mode = options.clock ?? 'local'
  if (typeof mode === 'object') return mode
  // Cast: fake-timers' timers take any callback at run time; only its declarations are narrower.
  if (mode === 'global') {
    return timers.install({
      now: start,
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate', 'Date'],
    }) as Clock
  }
  const clock = timers.createClock(start)
  // A local clock has nothing to restore; giving it the method keeps one shape for both kinds.
  if (typeof clock.uninstall !== 'function') clock.uninstall = () => []
  return clock as Clock
}

export function toEpoch(start: ClockOptions['start']): number {
  if (start === undefined) return DEFAULT_START
  const ms = start instanceof Date ? start.getTime() : typeof start === 'number' ? start : Date.parse(start)
  if (!Number.isFinite(ms)) {
    throw new TypeError(`createSimulator: option 'start' must be a date, epoch ms or ISO string; got ${String(start)}`)
  }
  return ms
}
