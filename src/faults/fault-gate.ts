import type { Admission, Gate } from '#domain/service.js'
import type { ServiceError } from '#domain/service-error.js'
import type { FaultSource } from './fault-controller.js'
import { forcedConflict, forcedLockTimeout, forcedRateLimit, forcedServerError } from './fault-errors.js'
import { type FaultParams, pickReason } from './fault-policy.js'
import { type FaultState, REQUEST_KINDS } from './fault-state.js'
import type { FaultKind } from './faults-schema.js'

/** The refusal a request fault makes (recorded), or undefined for a session expiry (done now). */
function refusal(
  state: FaultState,
  kind: FaultKind,
  p: FaultParams,
  a: Admission,
  source: FaultSource,
): ServiceError | undefined {
  const { prefix } = state
  switch (kind) {
    case 'rate_limit': {
      const reason = pickReason(p, state.rng)
      state.record(`rate_limit:${reason}`, kind, source, { operation: a.operation, reason })
      return forcedRateLimit(reason, prefix, a.operation, a.api)
    }
    case 'lock_timeout':
      state.record('lock_timeout', kind, source, { operation: a.operation })
      return forcedLockTimeout(prefix)
    case 'concurrent_conflict':
      state.record('concurrent_conflict', kind, source, { operation: a.operation })
      return forcedConflict()
    case 'server_error':
      state.record('server_error', kind, source, { operation: a.operation })
      return forcedServerError(prefix)
    default:
      state.expireSessions(a.account, source)
      return undefined
  }
}

/**
 * Admits a request past the faults: armed request faults first (in `REQUEST_KINDS` order), then
 * those drawn from their rates; throws the first refusal. An armed fault letting requests through
 * (`after`) counts every matching request, the ones another fault refused too.
 *
 * @example
 * admitPastFaults(state, admission) // throws a ServiceError when a fault refuses it
 */
export function admitPastFaults(state: FaultState, a: Admission): void {
  let refused: ServiceError | undefined
  for (const kind of REQUEST_KINDS) {
    // Refused already: the faults of the later kinds that let requests through still count it.
    if (refused !== undefined) {
      state.passBy(kind, a.operation)
      continue
    }
    const p = state.take(kind, a.operation)
    if (p !== undefined) refused = refusal(state, kind, p, a, state.taken)
  }
  if (refused !== undefined) throw refused
  for (const kind of state.requestRates) {
    if (!state.rng.chance(state.rates[kind] ?? 0)) continue
    const error = refusal(state, kind, state.params(kind), a, 'rate')
    if (error) throw error
  }
}

/**
 * The admission gate of a fault engine: forced 429s, lock timeouts, 409s, 5xx, early session expiry.
 *
 * @example
 * service.gates.unshift(faultGate(state))
 */
export function faultGate(state: FaultState): Gate {
  return (a) => admitPastFaults(state, a)
}
