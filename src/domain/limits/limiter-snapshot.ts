import { fromPlain, toPlain } from '#kernel/plain.js'
import type { LimitedRequest } from './limiter.js'
import { allocationOf, type LimiterState, unbindAll } from './limiter-state.js'
import type { ReadAllocation } from './read-allocation.js'
import { SlidingLog } from './sliding-log.js'

// Windows, slots and read allocations are counters: saved as numbers, rebuilt on load (the
// plans' bindings to them are dropped, as a sweep does, and found again on next use).
interface SavedLimits {
  admissions: number
  nextSweep: number
  logs: [string, number[]][]
  inFlight: [string, number][]
  allocations: [string, ReturnType<ReadAllocation['save']>][]
}

// The counters as fresh records: a snapshot encodes them (`toPlain`); a fork takes them as they are.
function records(s: LimiterState): SavedLimits {
  return {
    admissions: s.admissions,
    nextSweep: s.nextSweep,
    logs: [...s.logs].map(([k, log]) => [k, log.save()]),
    inFlight: [...s.inFlight].map(([k, slot]) => [k, slot.n]),
    allocations: [...s.allocations].map(([k, a]) => [k, a.save()]),
  }
}

function apply(s: LimiterState, saved: SavedLimits): void {
  s.admissions = saved.admissions
  s.nextSweep = saved.nextSweep
  s.logs.clear()
  for (const [k, times] of saved.logs) s.logs.set(k, SlidingLog.load(times))
  s.inFlight.clear()
  for (const [k, n] of saved.inFlight) s.inFlight.set(k, { n })
  s.allocations.clear()
  for (const [k, a] of saved.allocations) {
    const [who = '', mode = 'test', behalf] = k.split('|')
    const onBehalf = behalf === 'behalf'
    allocationOf(s, k, { account: who, authenticated: who, mode: mode as LimitedRequest['mode'], onBehalf }).load(a)
  }
  unbindAll(s)
}

/**
 * Registers a limiter's counters as the `limits` part of a snapshot.
 *
 * @example
 * registerLimiterSnapshot(state)
 */
export function registerLimiterSnapshot(s: LimiterState): void {
  s.kernel.state.register('limits', {
    save() {
      return toPlain(records(s))
    },
    load(data) {
      apply(s, fromPlain<SavedLimits>(data))
    },
    copy() {
      return records(s)
    },
    loadCopy(data) {
      apply(s, data as SavedLimits)
    },
  })
}
