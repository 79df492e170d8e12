import type { Kernel } from '#domain/kernel-parts.js'
import { fromPlain, toPlain } from '#kernel/plain.js'
import type { RandomStream } from '#kernel/rng.js'
import type { FaultListener, FaultSource, FaultTarget } from './fault-controller.js'
import type { FaultParams, ResolvedFaultPolicy } from './fault-policy.js'
import type { FaultEntry, FaultKind } from './faults-schema.js'

/** The kinds an admission gate decides, in the order it asks them. */
export const REQUEST_KINDS = ['rate_limit', 'lock_timeout', 'concurrent_conflict', 'server_error', 'session_expiry'] as const
// `receiver_slow` is not among them: scheduled or drawn, it slows the next delivery attempt(s) on the network.
const OUTSIDE_KINDS = new Set<FaultKind>(['receiver_down', 'receiver_up', 'replay_delivery'])

/** A fault scheduled or injected, waiting for the request or attempt it applies to. */
interface ArmedFault {
  params: FaultParams
  remaining: number
  source: FaultSource
  /** Matching requests still to let through before it fires (`after`); absent once none are. */
  passing?: number
}

/** A fault decided for one request or attempt: its parameters and where it came from. */
export interface FaultDecision {
  readonly p: FaultParams
  readonly source: FaultSource
}

/**
 * What a fault engine keeps as the run goes (armed faults, counts, the step, the rates in force)
 * and the steps every decision is made of: take an armed fault, draw a rate, record a decision.
 * Randomness comes only from `rng` (the `faults` stream).
 *
 * @example
 * const state = new FaultState(target, policy, kernel.rng.stream('faults'))
 * state.decide('delay_delivery') // { p: { delay: 3000 }, source: 'rate' } or undefined
 */
export class FaultState {
  policy: ResolvedFaultPolicy
  readonly target: FaultTarget
  readonly kernel: Kernel
  readonly prefix: string
  readonly rng: RandomStream
  readonly armed = new Map<FaultKind, ArmedFault[]>()
  /** Source of the armed fault `take` returned last (schedule or inject). */
  taken: FaultSource = 'schedule'
  readonly listeners = new Map<FaultKind, FaultListener>()
  readonly counts: Record<string, number> = {}
  current = 0
  /** A copy: `setRates` and `clear` change the rates in force, never the resolved policy. */
  readonly rates: Partial<Record<FaultKind, number>>
  /** The request kinds whose rate is not zero, in `REQUEST_KINDS` order. */
  requestRates: (typeof REQUEST_KINDS)[number][]

  constructor(target: FaultTarget, initial: ResolvedFaultPolicy, rng: RandomStream) {
    this.policy = initial
    this.target = target
    this.kernel = target.kernel
    this.prefix = target.kernel.prefix
    this.rng = rng
    this.rates = { ...initial.rates }
    this.requestRates = []
    this.refreshRequestRates()
    // The policy comes from the options (saved with them); what changes as the run goes is here.
    // Listeners are code, installed again by whoever built the simulator.
    this.kernel.state.register('faults', {
      save: () => this.#save(),
      load: (data) => this.#load(data),
    })
  }

  /** Lists again the request kinds drawn by rate, after the rates in force changed. */
  refreshRequestRates(): void {
    this.requestRates = REQUEST_KINDS.filter((k) => (this.rates[k] ?? 0) > 0)
  }

  #save() {
    const { armed, taken, counts, current, rates } = this
    return toPlain({ armed, taken, counts, current, rates })
  }

  #load(data: unknown): void {
    const saved = fromPlain<{
      armed: Map<FaultKind, ArmedFault[]>
      taken: FaultSource
      counts: Record<string, number>
      current: number
      rates: Partial<Record<FaultKind, number>>
    }>(data)
    this.armed.clear()
    for (const [k, v] of saved.armed) this.armed.set(k, v)
    this.taken = saved.taken
    for (const k of Object.keys(this.counts)) delete this.counts[k]
    Object.assign(this.counts, saved.counts)
    this.current = saved.current
    this.setRatesInForce(saved.rates)
  }

  /** Replaces the rates in force (and the request kinds drawn by rate). */
  setRatesInForce(next: Partial<Record<FaultKind, number>>): void {
    for (const k of Object.keys(this.rates)) delete this.rates[k as FaultKind]
    Object.assign(this.rates, next)
    this.refreshRequestRates()
  }

  /** Counts a decision under `label` and traces it as `fault`. */
  record(label: string, kind: FaultKind, source: FaultSource, detail: Record<string, unknown>): void {
    this.counts[label] = (this.counts[label] ?? 0) + 1
    this.kernel.trace.append('fault', { label, kind, source, step: this.current, ...detail })
  }

  /** The policy's default parameters of a kind. */
  params(kind: FaultKind): FaultParams {
    return this.policy.params[kind] ?? {}
  }

  /**
   * Takes one armed fault of `kind` that applies to `operation`, if any: the first that has let
   * through the requests its `after` names. Every one still letting requests through counts this
   * one, whichever fires.
   */
  take(kind: FaultKind, operation?: string): FaultParams | undefined {
    const list = this.armed.get(kind)
    if (list === undefined) return undefined
    let i = -1
    for (let j = 0; j < list.length; j++) {
      const a = list[j] as ArmedFault
      if (!appliesTo(a, operation)) continue
      if (a.passing !== undefined) passOne(a)
      else if (i < 0) i = j
    }
    const found = list[i]
    if (found === undefined) return undefined
    if (--found.remaining <= 0) list.splice(i, 1)
    this.taken = found.source
    return found.params
  }

  /**
   * Counts a request some fault of another kind refused first against the armed faults of `kind`
   * still letting requests through: `after` counts the matching requests made, not the ones that
   * reached it.
   */
  passBy(kind: FaultKind, operation?: string): void {
    for (const a of this.armed.get(kind) ?? []) if (a.passing !== undefined && appliesTo(a, operation)) passOne(a)
  }

  /** Arms a fault of `kind` for the next `count` requests or attempts it applies to. */
  arm(kind: FaultKind, p: FaultParams, source: FaultSource): void {
    let list = this.armed.get(kind)
    if (list === undefined) {
      list = []
      this.armed.set(kind, list)
    }
    list.push({ params: p, remaining: p.count ?? 1, source, ...((p.after ?? 0) > 0 ? { passing: p.after } : {}) })
  }

  /** An armed fault of `kind`, else one drawn from its rate. */
  decide(kind: FaultKind): FaultDecision | undefined {
    const scheduled = this.take(kind)
    if (scheduled !== undefined) return { p: scheduled, source: this.taken }
    const rate = this.rates[kind] ?? 0
    if (rate > 0 && this.rng.chance(rate)) return { p: this.params(kind), source: 'rate' }
    return undefined
  }

  /** Only armed (scheduled or injected) faults: the delivery area's own knobs draw the rates. */
  armedOnly(kind: FaultKind, operation?: string): FaultDecision | undefined {
    const scheduled = this.take(kind, operation)
    return scheduled === undefined ? undefined : { p: scheduled, source: this.taken }
  }

  /** Drawn from the rate only: a scheduled entry of an outside kind acts on the receiver instead. */
  rateOnly(kind: FaultKind): FaultDecision | undefined {
    const rate = this.rates[kind] ?? 0
    return rate > 0 && this.rng.chance(rate) ? { p: this.params(kind), source: 'rate' } : undefined
  }

  /** Ends the live meter event sessions (of one account, or all) and records it. */
  expireSessions(account: string | undefined, source: FaultSource): void {
    const ids = [...this.target.liveSessions(account)]
    this.record('session_expiry', 'session_expiry', source, { sessions: ids })
    for (const id of ids) this.target.expireSession(id)
  }

  /** Applies one fault now: an outside kind by its listener, a session expiry at once, others armed. */
  apply(entry: Omit<FaultEntry, 'step'>, source: FaultSource): void {
    const kind = entry.fault
    if (OUTSIDE_KINDS.has(kind)) {
      const listener = this.listeners.get(kind)
      const applied = listener ? listener({ step: Math.max(1, this.current), ...entry }, source) : false
      const { fault: _f, ...rest } = entry
      this.record(kind, kind, source, { ...rest, applied })
      return
    }
    if (kind === 'session_expiry') {
      this.expireSessions(undefined, source)
      return
    }
    const { fault: _f, ...p } = entry
    this.arm(kind, { ...this.params(kind), ...p }, source)
  }
}

/** Whether an armed fault applies to `operation` (one without an operation applies to every one). */
function appliesTo(a: ArmedFault, operation: string | undefined): boolean {
  return a.params.operation === undefined || (operation ?? '').startsWith(a.params.operation)
}

/** One matching request let through by an armed fault; the fault fires from the next on. */
function passOne(a: ArmedFault): void {
  if (a.passing === undefined) return
  if (--a.passing <= 0) delete a.passing
}
