import type { FaultHooks } from '#domain/fault-hooks.js'
import type { Kernel } from '#domain/kernel-parts.js'
import type { Gate } from '#domain/service.js'
import type { RandomStream } from '#kernel/rng.js'
import { controllerHooks } from './controller-hooks.js'
import { faultGate } from './fault-gate.js'
import type { ResolvedFaultPolicy } from './fault-policy.js'
import { FaultState } from './fault-state.js'
import type { FaultEntry, FaultKind } from './faults-schema.js'

/** Where a fault decision came from. */
export type FaultSource = 'schedule' | 'rate' | 'inject'

/** Handles the kinds that act on things outside the service (receivers, replays). */
export type FaultListener = (entry: FaultEntry, source: FaultSource) => boolean

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

/** The controller's methods a user may take off `sim.faults`. */
const BOUND = ['step', 'inject', 'on', 'fired', 'configured', 'rates', 'setRates', 'clear', 'adopt'] as const

/**
 * The controller `createFaultController` makes: its methods on the prototype, its state and
 * decisions in a `FaultState` shared with the gate and the hooks.
 */
class PolicyFaultController implements FaultController {
  readonly #state: FaultState
  readonly hooks: FaultHooks
  readonly gate: Gate

  constructor(state: FaultState) {
    this.#state = state
    this.gate = faultGate(state)
    this.hooks = controllerHooks(state)
    // `sim.faults` methods work taken off it (`[...].forEach(sim.faults.inject)`), as they did when
    // the controller was an object of closures.
    for (const name of BOUND) (this as Record<string, unknown>)[name] = this[name].bind(this)
  }

  get policy(): ResolvedFaultPolicy {
    return this.#state.policy
  }

  get currentStep(): number {
    return this.#state.current
  }

  step(n: number): void {
    const state = this.#state
    state.current = n
    for (const entry of state.policy.schedule) if (entry.step === n) state.apply(entry, 'schedule')
  }

  inject(entry: Omit<FaultEntry, 'step'>, source: FaultSource = 'inject'): void {
    if (typeof entry !== 'object' || entry === null || typeof entry.fault !== 'string')
      throw new TypeError("faults.inject: expected a fault { fault: '<kind>', ... }")
    this.#state.apply(entry, source)
  }

  on(kind: FaultKind, listener: FaultListener): () => void {
    const listeners = this.#state.listeners
    listeners.set(kind, listener)
    return () => listeners.delete(kind)
  }

  fired(): Record<string, number> {
    return { ...this.#state.counts }
  }

  configured(): FaultKind[] {
    const kinds = new Set<FaultKind>()
    for (const [k, r] of Object.entries(this.#state.rates)) if ((r ?? 0) > 0) kinds.add(k as FaultKind)
    for (const e of this.#state.policy.schedule) kinds.add(e.fault)
    return [...kinds].sort()
  }

  rates(): Partial<Record<FaultKind, number>> {
    return { ...this.#state.rates }
  }

  setRates(next: Partial<Record<FaultKind, number>>): void {
    if (typeof next !== 'object' || next === null || Array.isArray(next))
      throw new TypeError('faults.setRates: expected rates by fault kind, e.g. { duplicate_delivery: 0.1 }')
    const { rates } = this.#state
    for (const [k, r] of Object.entries(next)) {
      if (r === undefined) continue
      if (!(r >= 0 && r <= 1)) throw new RangeError(`faults.setRates: rate of '${k}' must be within 0..1, got ${r}`)
      if (r === 0) delete rates[k as FaultKind]
      else rates[k as FaultKind] = r
    }
    this.#state.refreshRequestRates()
    this.#state.kernel.trace.append('faults.changed', { rates: { ...rates }, cleared: false })
  }

  clear(): void {
    const state = this.#state
    state.setRatesInForce({})
    state.armed.clear()
    state.kernel.trace.append('faults.changed', { rates: {}, cleared: true })
  }

  adopt(next: ResolvedFaultPolicy): void {
    const state = this.#state
    state.policy = next
    state.setRatesInForce(next.rates)
    state.armed.clear()
  }
}

/**
 * Makes the fault engine of one simulation over `target`, running `initial` on the `faults` stream.
 *
 * @example
 * const faults = createFaultController(target, resolveFaultPolicy({ preset: 'realistic' }, rng), rng)
 */
export function createFaultController(target: FaultTarget, initial: ResolvedFaultPolicy, rng: RandomStream): FaultController {
  return new PolicyFaultController(new FaultState(target, initial, rng))
}
