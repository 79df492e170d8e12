import { type Clock, nextMacrotask } from '#kernel/index.js'
import type { Simulator } from '#simulator/index.js'
import { refuseArgument } from '../refuse-argument.js'

/** How a driven promise ended. */
export type Driven<T> =
  | { readonly state: 'ok'; readonly value: T }
  | { readonly state: 'error'; readonly error: unknown }
  | { readonly state: 'hung' }

/** Due time of the earliest fake timer (fake-timers keeps them in a heap). */
function firstTimerAt(clock: Clock): number | undefined {
  const heap = (clock as unknown as { timerHeap?: { peek(): { callAt: number } | undefined } }).timerHeap
  if (heap !== undefined) return heap.peek()?.callAt
  return clock.countTimers() === 0 ? undefined : clock.now
}

/** Fires the timers due at the earliest due time (synchronously: no real-time yield per timer). */
function fireNext(clock: Clock, limit: number): boolean {
  const at = firstTimerAt(clock)
  if (at === undefined || at > limit) return false
  clock.tick(Math.max(0, at - clock.now))
  return true
}

/**
 * Moves the clock by `ms`, firing every timer on the way in due order and letting the promises they
 * start (deliveries, receiver work, processing) run between two due times.
 *
 * @example
 * await advance(sim, 60_000)
 */
export async function advance(sim: Simulator, ms: number): Promise<void> {
  refuseArgument('advance', 'sim', sim, 'simulator')
  refuseArgument('advance', 'ms', ms, 'duration')
  const target = sim.clock.now + ms
  if (sim.service.timeline.active.size === 0) {
    // Nothing in flight: the scheduler jumps from one due task to the next (client timers on the way
    // still fire in order) instead of a real macrotask per due time.
    await sim.service.kernel.scheduler.advance(target)
    await nextMacrotask()
    if (sim.service.timeline.active.size === 0) return
  }
  for (;;) {
    await nextMacrotask()
    if (sim.service.timeline.active.size > 0) continue
    if (!fireNext(sim.clock, target)) break
  }
  if (sim.clock.now < target) sim.clock.tick(target - sim.clock.now)
  await nextMacrotask()
}

/**
 * Waits for client work that sleeps on the simulator's clock: whenever nothing is in flight, the
 * clock jumps to the next timer (the client's backoff, the service's processing, a delivery). Gives
 * up (`hung`) once `budgetMs` of virtual time passed or the work waits on something else.
 *
 * @example
 * const r = await drive(sim, reporter.report(units), 3_600_000)
 */
export async function drive<T>(sim: Simulator, work: Promise<T>, budgetMs: number): Promise<Driven<T>> {
  refuseArgument('drive', 'sim', sim, 'simulator')
  refuseArgument('drive', 'work', work, 'promise')
  refuseArgument('drive', 'budgetMs', budgetMs, 'duration')
  let result: Driven<T> | undefined
  work.then(
    (value) => {
      result = { state: 'ok', value }
    },
    (error: unknown) => {
      result = { state: 'error', error }
    },
  )
  const deadline = sim.clock.now + budgetMs
  let idle = 0
  while (result === undefined) {
    await nextMacrotask()
    if (result !== undefined) break
    if (sim.service.timeline.active.size > 0) {
      if (++idle > 1_000) return { state: 'hung' }
      continue
    }
    if (!fireNext(sim.clock, deadline)) {
      if (++idle > 50) return { state: 'hung' }
      continue
    }
    idle = 0
  }
  return result
}
