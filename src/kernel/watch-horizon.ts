import type { Clock } from './clock.js'

/**
 * The longest delay a timer can be armed with: `@sinonjs/fake-timers`, like Node and browsers,
 * fires a longer `setTimeout` at once (1 ms). Longer waits (a month-long period, a year-long trial)
 * arm a timer of at most this length and re-arm on wake until the due time is reached.
 */
export const MAX_TIMER_DELAY = 2 ** 31 - 1

/**
 * A delay a timer can be armed with: at least 0, at most {@link MAX_TIMER_DELAY}.
 *
 * @example
 * clampDelay(2 ** 40) // MAX_TIMER_DELAY
 */
export function clampDelay(delay: number): number {
  return Math.min(MAX_TIMER_DELAY, Math.max(0, delay))
}

// `runToLast(Async)` of fake-timers ticks to the last timer armed when it is called; with waits
// longer than MAX_TIMER_DELAY the scheduler's horizon timer is only a stepping stone. A clock's
// two methods are wrapped once, and repeat while the horizon of a scheduler on it lies ahead
// (a clock shared by many simulations holds their schedulers weakly, so it does not keep them
// alive; a simulation's own clock holds its one scheduler strongly: a WeakRef keeps its target
// alive until the current job ends, so forks made in one synchronous loop would all stay alive).

/** What a clock asks a scheduler on it: is its horizon (latest due time) still ahead? */
export interface HorizonProbe {
  ahead(): boolean
}
type ProbeRef = Pick<WeakRef<HorizonProbe>, 'deref'>
const probesOf = new WeakMap<Clock, Set<ProbeRef>>()

function anyAhead(probes: Set<ProbeRef>): boolean {
  let ahead = false
  for (const ref of probes) {
    const probe = ref.deref()
    if (probe === undefined) probes.delete(ref)
    else if (probe.ahead()) ahead = true
  }
  return ahead
}

/** Wraps a clock's `runToLast` and `runToLastAsync` once, to repeat while a probe is ahead. */
function wrapRunToLast(clock: Clock, set: Set<ProbeRef>): void {
  const runToLastAsync = clock.runToLastAsync
  const runToLast = clock.runToLast
  if (typeof runToLastAsync === 'function') {
    clock.runToLastAsync = async () => {
      let now = await runToLastAsync.call(clock)
      while (anyAhead(set)) now = await runToLastAsync.call(clock)
      return now
    }
  }
  if (typeof runToLast === 'function') {
    clock.runToLast = () => {
      let now = runToLast.call(clock)
      while (anyAhead(set)) now = runToLast.call(clock)
      return now
    }
  }
}

/**
 * Makes `clock.runToLast(Async)` go on while `probe` says its horizon is ahead. `owned`: the
 * clock is the probe's simulation's own and holds it strongly; otherwise weakly.
 *
 * @example
 * watchHorizon(clock, { ahead: () => latestDue > clock.now }, true)
 */
export function watchHorizon(clock: Clock, probe: HorizonProbe, owned: boolean): void {
  let probes = probesOf.get(clock)
  if (probes === undefined) {
    const set = new Set<ProbeRef>()
    probes = set
    probesOf.set(clock, set)
    wrapRunToLast(clock, set)
  }
  probes.add(
    owned
      ? {
          deref() {
            return probe
          },
        }
      : new WeakRef(probe),
  )
}
