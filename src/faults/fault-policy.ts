import type { RandomStream } from '#kernel/rng.js'
import { type FaultEntry, type FaultKind, type Faults, type FaultsInput, faultKinds, rateLimitReasons } from './faults-schema.js'
import { parseFaults } from './parsed-faults.js'

export type { FaultsInput } from './faults-schema.js'

/** Parameters a policy-drawn fault of one kind uses (reason, delay, count, status). */
export type FaultParams = Omit<FaultEntry, 'step' | 'fault'>

/** A policy ready to run: one rate per kind, default parameters, the explicit schedule. */
export interface ResolvedFaultPolicy {
  readonly rates: Readonly<Partial<Record<FaultKind, number>>>
  readonly params: Readonly<Partial<Record<FaultKind, FaultParams>>>
  readonly schedule: readonly FaultEntry[]
  /** How the rates were chosen: `explicit`, `realistic` or `swarm`. */
  readonly origin: 'explicit' | 'realistic' | 'swarm'
}

/**
 * The rates of the `realistic` preset: what a busy integration sees on a bad day. Request faults
 * are drawn per request, `indeterminate` per committed answer, `slow_processing` per accepted
 * meter event batch, delivery faults per delivery.
 *
 * @example
 * createSimulator({ faults: { preset: 'realistic' } })
 */
export const realisticRates: Readonly<Partial<Record<FaultKind, number>>> = {
  rate_limit: 0.03,
  lock_timeout: 0.01,
  concurrent_conflict: 0.005,
  server_error: 0.005,
  indeterminate: 0.02,
  session_expiry: 0.01,
  slow_processing: 0.05,
  duplicate_delivery: 0.05,
  reorder_delivery: 0.2,
  delay_delivery: 0.05,
  receiver_down: 0.02,
  receiver_slow: 0.02,
  replay_delivery: 0.01,
}

/** Default parameters of policy-drawn faults. */
export const defaultFaultParams: Readonly<Partial<Record<FaultKind, FaultParams>>> = {
  slow_processing: { delay: 60_000 },
  reorder_delivery: { delay: 5_000 },
  delay_delivery: { delay: 3_000 },
  receiver_slow: { delay: 2_000 },
}

/**
 * True when `faults` plainly passes its schema with nothing to parse: no faults, or only a preset
 * and swarm mode with an empty schedule (how every fork of a property run without scheduled faults
 * goes on). Anything else goes to the schema, which accepts it or words the refusal.
 */
function plainFaults(input: FaultsInput | Faults): boolean {
  for (const [key, value] of Object.entries(input)) {
    if (key === 'preset') {
      if (value !== undefined && value !== 'none' && value !== 'realistic') return false
    } else if (key === 'swarm') {
      if (value !== undefined && typeof value !== 'boolean') return false
    } else if (key !== 'schedule' || !(value === undefined || (Array.isArray(value) && value.length === 0))) return false
  }
  return true
}

/**
 * Parses and resolves the `faults` option. Swarm mode draws, per seed, which kinds are on (each
 * with probability 1/2) and at what multiple of the realistic rate (x0.5 to x4), from the `faults`
 * stream, so different seeds explore different mixes.
 *
 * @example
 * resolveFaultPolicy({ preset: 'realistic' }, rng.stream('faults')).rates.rate_limit // 0.03
 */
export function resolveFaultPolicy(
  input: FaultsInput | Faults,
  rng: RandomStream,
  caller = 'resolveFaultPolicy',
): ResolvedFaultPolicy {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw new TypeError(
      `${caller}: option 'faults' must be an object such as { preset: 'realistic' }, got ${input === null ? 'null' : typeof input}`,
    )
  const plain = plainFaults(input)
  // A plain policy without swarm draws nothing: its resolution depends on the preset alone, and is
  // made once per process (every fork of a property run continues with one).
  if (plain && input.swarm !== true) {
    const key = input.preset ?? 'none'
    let known = plainPolicies.get(key)
    if (known === undefined) {
      known = frozen(resolved(input, rng, caller, true))
      plainPolicies.set(key, known)
    }
    return known
  }
  return resolved(input, rng, caller, plain)
}

const plainPolicies = new Map<string, ResolvedFaultPolicy>()

/** A resolved policy nobody may change: shared by every simulator that resolves the same plain input. */
function frozen(policy: ResolvedFaultPolicy): ResolvedFaultPolicy {
  // Each kind's params are frozen as copies: the resolution shares them with the exported
  // `defaultFaultParams`, which freezing in place would freeze for the caller too.
  const params: Partial<Record<FaultKind, FaultParams>> = {}
  for (const [k, p] of Object.entries(policy.params)) params[k as FaultKind] = Object.freeze({ ...p })
  Object.freeze(policy.rates)
  Object.freeze(policy.schedule)
  return Object.freeze({ ...policy, params: Object.freeze(params) })
}

function resolved(input: FaultsInput | Faults, rng: RandomStream, caller: string, plain: boolean): ResolvedFaultPolicy {
  // No faults (the usual case) is the schema's empty section, without building the schema (and
  // loading zod) at a cold start.
  const parsed = plain ? { success: true as const, data: { ...input, schedule: [] } as Faults } : parseFaults(input)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const path = ['faults', ...(issue?.path ?? [])].join('.')
    if (issue?.code === 'custom') throw new TypeError(`${caller}: option '${path}': ${issue.message}`)
    throw new TypeError(`${caller}: option '${path}' ${issue?.message ?? 'is invalid'}`)
  }
  const f = parsed.data
  let rates: Partial<Record<FaultKind, number>> = {}
  let origin: ResolvedFaultPolicy['origin'] = 'explicit'
  if (f.preset === 'realistic') {
    rates = { ...realisticRates }
    origin = 'realistic'
  }
  if (f.swarm === true) {
    origin = 'swarm'
    rates = {}
    for (const kind of faultKinds) {
      const base = realisticRates[kind]
      if (base === undefined) continue
      if (rng.chance(0.5)) rates[kind] = Math.min(1, base * rng.between(0.5, 4))
    }
  }
  Object.assign(rates, f.policy?.rates ?? {})
  const params: Partial<Record<FaultKind, FaultParams>> = { ...defaultFaultParams }
  for (const [k, p] of Object.entries(f.policy?.params ?? {})) params[k as FaultKind] = { ...params[k as FaultKind], ...p }
  return { rates, params, schedule: f.schedule, origin }
}

/** A 429 reason for a policy-drawn rate limit: the configured one, or one drawn per fault. */
export function pickReason(params: FaultParams | undefined, rng: RandomStream): (typeof rateLimitReasons)[number] {
  return params?.reason ?? (rateLimitReasons[rng.int(rateLimitReasons.length)] as (typeof rateLimitReasons)[number])
}
