import type { FaultHooks } from '#domain/fault-hooks.js'
import type { Kernel } from '#domain/kernel-parts.js'
import type { Admission, Gate } from '#domain/service.js'
import type { ServiceError } from '#domain/service-error.js'
import { fromPlain, toPlain } from '#kernel/plain.js'
import type { RandomStream } from '#kernel/rng.js'
import { forcedConflict, forcedLockTimeout, forcedRateLimit, forcedServerError } from './fault-errors.js'
import { type FaultParams, pickReason, type ResolvedFaultPolicy } from './fault-policy.js'
import type { FaultEntry, FaultKind } from './faults-schema.js'

/** Where a fault decision came from. */
export type FaultSource = 'schedule' | 'rate' | 'inject'

/** Handles the kinds that act on things outside the service (receivers, replays). */
export type FaultListener = (entry: FaultEntry, source: FaultSource) => boolean

const REQUEST_KINDS = ['rate_limit', 'lock_timeout', 'concurrent_conflict', 'server_error', 'session_expiry'] as const
// `receiver_slow` is not among them: scheduled or drawn, it slows the next delivery attempt(s) on the network.
const OUTSIDE_KINDS = new Set<FaultKind>(['receiver_down', 'receiver_up', 'replay_delivery'])

/**
 * Runs a fault policy inside one simulation: the admission gate (forced 429s, lock timeouts, 409s,
 * 5xx, early session expiry), the domain hooks (indeterminate answers, slow processing), delivery
 * per-attempt delivery decisions (`hooks.deliveryFault`), and the explicit schedule, step by step. Every
 * decision is appended to the trace as `fault` with its `label`; randomness comes only from the
 * `faults` stream, so adding faults never shifts ids.
 *
 * @example
 * const faults = createFaultController({ kernel, liveSessions: (a) => sessions.live(a), expireSession: (id) => sessions.expire(id) }, policy, rng)
 * faults.step(3) // applies the schedule entries of step 3
 * faults.fired() // { 'rate_limit:global-rate': 1, indeterminate: 2 }
 */
export interface FaultController {
  readonly policy: ResolvedFaultPolicy
  readonly hooks: FaultHooks
  readonly gate: Gate
  /** The current step (0 before the first). */
  readonly currentStep: number
  /** Moves to step `n` and applies its scheduled faults. */
  step(n: number): void
  /** Applies one fault now (admin or model command). */
  inject(entry: Omit<FaultEntry, 'step'>, source?: FaultSource): void
  /** Registers the handler of an outside kind (receivers, replays); returns an unregister function. */
  on(kind: FaultKind, listener: FaultListener): () => void
  /** How often each label fired. */
  fired(): Record<string, number>
  /** Kinds with a non-zero rate or a schedule entry. */
  configured(): FaultKind[]
  /** The rates in force: the policy's, as changed by `setRates` and `clear`. */
  rates(): Partial<Record<FaultKind, number>>
  /**
   * Changes rates at run time (merged into those in force; 0 switches a kind off), traced as
   * `faults.changed`. Decisions still draw from the `faults` stream.
   *
   * @example
   * sim.faults.setRates({ rate_limit: 1 }) // every request is refused with a 429 until set back to 0
   */
  setRates(rates: Partial<Record<FaultKind, number>>): void
  /** Switches every rate off and disarms the injected and scheduled faults not taken yet. */
  clear(): void
  /**
   * Puts another resolved policy in force from now on (its rates and schedule; armed faults not
   * taken yet are disarmed), as a prepared simulation continues with a run's own faults.
   */
  adopt(next: ResolvedFaultPolicy): void
}

/**
 * What the fault engine acts on: the kernel (trace, clock) and the one domain action it takes
 * itself, over the service's own meter event sessions (it keeps no copy of them).
 */
export interface FaultTarget {
  readonly kernel: Kernel
  /** The ids of the sessions whose tokens still work, oldest first: of one account, or of all. */
  liveSessions(account?: string): readonly string[]
  /** Ends one meter event session now (fault `session_expiry`). */
  expireSession(id: string): void
}

export function createFaultController(target: FaultTarget, initial: ResolvedFaultPolicy, rng: RandomStream): FaultController {
  let policy = initial
  const { kernel } = target
  const prefix = kernel.prefix
  const armed = new Map<FaultKind, { params: FaultParams; remaining: number; source: FaultSource }[]>()
  // Source of the armed fault `take` returned last (schedule or inject).
  let taken: FaultSource = 'schedule'
  const listeners = new Map<FaultKind, FaultListener>()
  const counts: Record<string, number> = {}
  let current = 0
  // A copy: `setRates` and `clear` change the rates in force, never the resolved policy.
  const rates: Partial<Record<FaultKind, number>> = { ...policy.rates }
  let requestRates = REQUEST_KINDS.filter((k) => (rates[k] ?? 0) > 0)

  // The policy comes from the options (saved with them); what changes as the run goes is here.
  // Listeners are code, installed again by whoever built the simulator.
  kernel.state.register('faults', {
    save: () => toPlain({ armed, taken, counts, current, rates }),
    load(data) {
      const saved = fromPlain<{
        armed: typeof armed
        taken: FaultSource
        counts: typeof counts
        current: number
        rates: typeof rates
      }>(data)
      armed.clear()
      for (const [k, v] of saved.armed) armed.set(k, v)
      taken = saved.taken
      for (const k of Object.keys(counts)) delete counts[k]
      Object.assign(counts, saved.counts)
      current = saved.current
      for (const k of Object.keys(rates)) delete rates[k as FaultKind]
      Object.assign(rates, saved.rates)
      requestRates = REQUEST_KINDS.filter((k) => (rates[k] ?? 0) > 0)
    },
  })

  function record(label: string, kind: FaultKind, source: FaultSource, detail: Record<string, unknown>): void {
    counts[label] = (counts[label] ?? 0) + 1
    kernel.trace.append('fault', { label, kind, source, step: current, ...detail })
  }

  function params(kind: FaultKind): FaultParams {
    return policy.params[kind] ?? {}
  }

  /** Takes one armed fault of `kind` that applies to `operation`, if any. */
  function take(kind: FaultKind, operation?: string): FaultParams | undefined {
    const list = armed.get(kind)
    if (list === undefined) return undefined
    const i = list.findIndex((a) => a.params.operation === undefined || (operation ?? '').startsWith(a.params.operation))
    const found = list[i]
    if (found === undefined) return undefined
    if (--found.remaining <= 0) list.splice(i, 1)
    taken = found.source
    return found.params
  }

  function arm(kind: FaultKind, p: FaultParams, source: FaultSource): void {
    let list = armed.get(kind)
    if (list === undefined) {
      list = []
      armed.set(kind, list)
    }
    list.push({ params: p, remaining: p.count ?? 1, source })
  }

  function expireSessions(account: string | undefined, source: FaultSource): void {
    const ids = [...target.liveSessions(account)]
    record('session_expiry', 'session_expiry', source, { sessions: ids })
    for (const id of ids) target.expireSession(id)
  }

  function refusal(kind: FaultKind, p: FaultParams, a: Admission, source: FaultSource): ServiceError | undefined {
    switch (kind) {
      case 'rate_limit': {
        const reason = pickReason(p, rng)
        record(`rate_limit:${reason}`, kind, source, { operation: a.operation, reason })
        return forcedRateLimit(reason, prefix, a.operation, a.api)
      }
      case 'lock_timeout':
        record('lock_timeout', kind, source, { operation: a.operation })
        return forcedLockTimeout(prefix)
      case 'concurrent_conflict':
        record('concurrent_conflict', kind, source, { operation: a.operation })
        return forcedConflict()
      case 'server_error':
        record('server_error', kind, source, { operation: a.operation })
        return forcedServerError(prefix)
      default:
        expireSessions(a.account, source)
        return undefined
    }
  }

  const gate: Gate = (a) => {
    for (const kind of REQUEST_KINDS) {
      const p = take(kind, a.operation)
      if (p === undefined) continue
      const error = refusal(kind, p, a, taken)
      if (error) throw error
    }
    for (const kind of requestRates) {
      if (!rng.chance(rates[kind] ?? 0)) continue
      const error = refusal(kind, params(kind), a, 'rate')
      if (error) throw error
    }
  }

  const hooks: FaultHooks = {
    dropAnswer(flight, status) {
      if (status < 200 || status >= 300) return false
      const scheduled = take('indeterminate', flight.operation)
      const source: FaultSource | undefined =
        scheduled !== undefined
          ? taken
          : (rates.indeterminate ?? 0) > 0 && rng.chance(rates.indeterminate ?? 0)
            ? 'rate'
            : undefined
      if (source === undefined) return false
      record('indeterminate', 'indeterminate', source, { operation: flight.operation ?? null, status })
      return true
    },
    processingDelay() {
      const scheduled = take('slow_processing')
      const source: FaultSource | undefined =
        scheduled !== undefined
          ? taken
          : (rates.slow_processing ?? 0) > 0 && rng.chance(rates.slow_processing ?? 0)
            ? 'rate'
            : undefined
      if (source === undefined) return 0
      const delay = (scheduled ?? params('slow_processing')).delay ?? 60_000
      record('slow_processing', 'slow_processing', source, { delay })
      return delay
    },
  }

  /** Only armed (scheduled or injected) faults: the delivery area's own knobs draw the rates. */
  function armedOnly(kind: FaultKind, operation?: string): { p: FaultParams; source: FaultSource } | undefined {
    const scheduled = take(kind, operation)
    return scheduled === undefined ? undefined : { p: scheduled, source: taken }
  }

  /** Drawn from the rate only: a scheduled entry of an outside kind acts on the receiver instead. */
  function rateOnly(kind: FaultKind): { p: FaultParams; source: FaultSource } | undefined {
    const rate = rates[kind] ?? 0
    return rate > 0 && rng.chance(rate) ? { p: params(kind), source: 'rate' } : undefined
  }

  // Asked by the delivery domain before each automatic attempt is scheduled. Reordering, delays and
  // duplicates act on the first attempt (a schedule entry's `operation` may name the event type);
  // a transport failure or a slow network may hit any attempt, retries included.
  hooks.deliveryFault = (detail) => {
    const first = (detail.attempt ?? 1) === 1
    const reorder = first ? armedOnly('reorder_delivery', detail.type) : undefined
    const delay = first ? (armedOnly('delay_delivery', detail.type) ?? decide('delay_delivery')) : undefined
    const dup = first ? armedOnly('duplicate_delivery', detail.type) : undefined
    const down = rateOnly('receiver_down')
    // Scheduled: the next `count` attempts after its step (`operation` may name the event type).
    const slow = armedOnly('receiver_slow', detail.type) ?? rateOnly('receiver_slow')
    let delayMs = 0
    if (reorder) {
      delayMs += reorder.p.delay ?? 5_000
      record('reorder_delivery', 'reorder_delivery', reorder.source, { ...detail, delay: delayMs })
    }
    if (delay) {
      const d = delay.p.delay ?? 3_000
      delayMs += d
      record('delay_delivery', 'delay_delivery', delay.source, { ...detail, delay: d })
    }
    if (dup) record('duplicate_delivery', 'duplicate_delivery', dup.source, { ...detail })
    if (down) record('receiver_down', 'receiver_down', down.source, { ...detail, transport: 'connect_error' })
    const slowMs = slow ? (slow.p.delay ?? 2_000) : 0
    if (slow) record('receiver_slow', 'receiver_slow', slow.source, { ...detail, delay: slowMs })
    return { duplicate: dup !== undefined, delayMs, fail: down !== undefined, slowMs }
  }

  function decide(kind: FaultKind): { p: FaultParams; source: FaultSource } | undefined {
    const scheduled = take(kind)
    if (scheduled !== undefined) return { p: scheduled, source: taken }
    const rate = rates[kind] ?? 0
    if (rate > 0 && rng.chance(rate)) return { p: params(kind), source: 'rate' }
    return undefined
  }

  function apply(entry: Omit<FaultEntry, 'step'>, source: FaultSource): void {
    const kind = entry.fault
    if (OUTSIDE_KINDS.has(kind)) {
      const listener = listeners.get(kind)
      const applied = listener ? listener({ step: Math.max(1, current), ...entry }, source) : false
      const { fault: _f, ...rest } = entry
      record(kind, kind, source, { ...rest, applied })
      return
    }
    if (kind === 'session_expiry') {
      expireSessions(undefined, source)
      return
    }
    const { fault: _f, ...p } = entry
    arm(kind, { ...params(kind), ...p }, source)
  }

  return {
    get policy() {
      return policy
    },
    hooks,
    gate,
    get currentStep() {
      return current
    },
    step(n) {
      current = n
      for (const entry of policy.schedule) if (entry.step === n) apply(entry, 'schedule')
    },
    inject: (entry, source = 'inject') => apply(entry, source),
    on(kind, listener) {
      listeners.set(kind, listener)
      return () => listeners.delete(kind)
    },
    fired: () => ({ ...counts }),
    configured() {
      const kinds = new Set<FaultKind>()
      for (const [k, r] of Object.entries(rates)) if ((r ?? 0) > 0) kinds.add(k as FaultKind)
      for (const e of policy.schedule) kinds.add(e.fault)
      return [...kinds].sort()
    },
    rates: () => ({ ...rates }),
    setRates(next) {
      for (const [k, r] of Object.entries(next)) {
        if (r === undefined) continue
        if (!(r >= 0 && r <= 1)) throw new RangeError(`faults.setRates: rate of '${k}' must be within 0..1, got ${r}`)
        if (r === 0) delete rates[k as FaultKind]
        else rates[k as FaultKind] = r
      }
      requestRates = REQUEST_KINDS.filter((k) => (rates[k] ?? 0) > 0)
      kernel.trace.append('faults.changed', { rates: { ...rates }, cleared: false })
    },
    clear() {
      for (const k of Object.keys(rates)) delete rates[k as FaultKind]
      requestRates = []
      armed.clear()
      kernel.trace.append('faults.changed', { rates: {}, cleared: true })
    },
    adopt(next) {
      policy = next
      for (const k of Object.keys(rates)) delete rates[k as FaultKind]
      Object.assign(rates, next.rates)
      requestRates = REQUEST_KINDS.filter((k) => (rates[k] ?? 0) > 0)
      armed.clear()
    },
  }
}
