import type { Clock } from '#kernel/clock.js'
import { nextMacrotask } from '#kernel/macrotask.js'

/** What `runOnClock` needs of a simulator: its clock and (to avoid jumping mid-request) its in-flight set. */
export interface ClockDriven {
  readonly clock: Clock
  readonly service?: { readonly timeline: { readonly active: ReadonlySet<unknown> } }
}

export interface RunOnClockOptions {
  /**
   * Real macrotasks to wait, with no timer due and no request in flight, before giving up on work
   * that waits on something other than the clock. Default 10,000.
   */
  idleLimit?: number
  /** Fail once the clock has passed this virtual time (epoch ms): a guard against endless retry loops. */
  until?: number
}

/**
 * Runs client code whose own timers are on the simulator's clock (installed with
 * `createSimulator({ clock: 'global' })`, or injected) to completion: whenever the code is idle (a
 * real macrotask passed, no request is in flight) the clock jumps to the next due timer, whether
 * that is the client's backoff sleep or the service's own retry. Nothing waits in real time.
 *
 * @example
 * const sim = createSimulator({ seed: 1, clock: 'global' })
 * const result = await runOnClock(sim, () => clientThatSleepsAndRetries())
 * sim.clock.uninstall()
 */
export async function runOnClock<T>(
  sim: ClockDriven,
  work: Promise<T> | (() => Promise<T>),
  options: RunOnClockOptions = {},
): Promise<T> {
  if (typeof sim !== 'object' || sim === null || typeof sim.clock?.countTimers !== 'function')
    throw new TypeError('runOnClock: sim must be a simulator (createSimulator) or an object with its clock')
  if (typeof options !== 'object' || options === null) throw new TypeError('runOnClock: options must be an object')
  const promise = typeof work === 'function' ? work() : work
  if (typeof (promise as Promise<T> | null)?.then !== 'function')
    throw new TypeError('runOnClock: work must be a promise or a function that returns one')
  let settled = false
  promise.then(
    () => {
      settled = true
    },
    () => {
      settled = true
    },
  )
  const idleLimit = options.idleLimit ?? 10_000
  let idle = 0
  while (!settled) {
    // Two real macrotasks: a response travelling through an interceptor or a stream takes more
    // than one, and jumping the clock mid-flight would fire timers the client has not reached.
    await nextMacrotask()
    await nextMacrotask()
    if (settled) break
    const busy = (sim.service?.timeline.active.size ?? 0) > 0
    if (busy || sim.clock.countTimers() === 0) {
      if (++idle > idleLimit) {
        throw new Error(
          `runOnClock: the work waited ${idleLimit} macrotasks on something other than the virtual clock ` +
            '(real I/O, a timer captured before the clock was installed, or a promise that never settles)',
        )
      }
      continue
    }
    idle = 0
    await sim.clock.nextAsync()
    if (options.until !== undefined && sim.clock.now > options.until) {
      throw new Error(`runOnClock: the work was still running at virtual time ${new sim.clock.Date(sim.clock.now).toISOString()}`)
    }
  }
  return promise
}
