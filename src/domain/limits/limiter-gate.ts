import { reasonOf } from './limit-row.js'
import type { Step } from './limit-table.js'
import type { LimitedRequest } from './limiter.js'
import { bind, keyOf, type LimiterState, logFor, planOf, type Slot, slotFor, sweep } from './limiter-state.js'
import { rateLimited, tooManyConcurrent } from './refusals.js'
import type { SlidingLog } from './sliding-log.js'

const SWEEP_EVERY = 4096

/**
 * Checks every row that applies to a request and only then counts it, so a refused request
 * consumes nothing; throws the refusal of the most specific full row. Returns the release of the
 * concurrency slots it took, if any.
 *
 * @example
 * const release = admit(state, admission)
 * try { serve() } finally { release?.() }
 */
export function admit(s: LimiterState, r: LimitedRequest): void | (() => void) {
  const p = planOf(s, r)
  if (p.empty) return
  const now = s.kernel.clock.now
  // Idle keys are dropped every few thousand admissions and at least once per longest window, so
  // memory follows the traffic of the last window, not of the whole run.
  if (++s.admissions % SWEEP_EVERY === 0 || now >= s.nextSweep) {
    sweep(s, now)
    s.nextSweep = now + s.longestWindow
  }
  const b = bind(s, p, r)
  const rate = p.rate
  let ownLogs: (SlidingLog | undefined)[] | undefined
  for (let i = 0; i < rate.length; i++) {
    const step = rate[i] as Step
    let log = b.logs[i]
    if (log === undefined) {
      const key = keyOf(s, step, r)
      if (key === undefined) continue
      log = logFor(s, key)
      ownLogs ??= []
      ownLogs[i] = log
    }
    if (!log.admits(now, step.window, step.row.max)) refuse(s, step, r)
  }
  const concurrency = p.concurrency
  let held: Slot[] | undefined
  for (let i = 0; i < concurrency.length; i++) {
    const step = concurrency[i] as Step
    let slot = b.slots[i]
    if (slot === undefined) {
      const key = keyOf(s, step, r)
      if (key === undefined) continue
      slot = slotFor(s, key)
    }
    if (slot.n >= step.row.max) refuse(s, step, r)
    held ??= []
    held.push(slot)
  }
  if (b.reads !== undefined) {
    if (!b.reads.admits(now)) {
      s.kernel.trace.append('limit.refused', { row: 'reads', operation: r.operation, account: r.account, mode: r.mode })
      throw rateLimited('global-rate', s.kernel.prefix, r.api ?? 'v1', 'rate_limit_reads')
    }
    b.reads.add(now)
  }
  for (let i = 0; i < rate.length; i++) (b.logs[i] ?? ownLogs?.[i])?.add(now)
  if (held === undefined) return
  const slots = held
  for (const slot of slots) slot.n++
  return () => {
    for (const slot of slots) slot.n--
  }
}

function refuse(s: LimiterState, step: Step, r: LimitedRequest): never {
  const { kernel } = s
  kernel.trace.append('limit.refused', { row: step.row.id, operation: r.operation, account: r.account, mode: r.mode })
  const reason = reasonOf(step.row)
  if (reason === undefined) {
    const m = s.meterKey(r.body)
    throw tooManyConcurrent(m?.customer ?? '', m?.meter ?? '')
  }
  throw rateLimited(reason, kernel.prefix, r.api ?? 'v1')
}
