import type { Behaviour, BehaviourEnv, OperationCall } from '../engine/declaration.js'
import type { Json } from '../engine/list.js'
import type { ResourcePorts } from '../resource-ports.js'
import { invalidRequest, resourceMissing } from '../service-error.js'

type Env = BehaviourEnv<ResourcePorts>

/** The `requirements.disabled_reason` of an account its platform rejected, by the reason given. */
function disabledReasonOf(reason: unknown): string {
  if (typeof reason === 'string' && reason.startsWith('fraud')) return 'rejected.platform_fraud'
  return reason === 'terms_of_service' ? 'rejected.platform_terms_of_service' : 'rejected.platform_other'
}

const isRejected = (account: Json) =>
  String((account.requirements as Json | null | undefined)?.disabled_reason ?? '').startsWith('rejected.')

/**
 * The fields of a rejected account over what follows from the rest: a rejection outlasts every
 * later change, so charges and payouts stay off and capabilities inactive until it is undone.
 *
 * @example
 * rejectionOver(account, fields).charges_enabled // false once the platform rejected it
 */
export function rejectionOver(account: Json, fields: Json): Json {
  if (!isRejected(account)) return fields
  const capabilities: Record<string, string> = {}
  for (const name of Object.keys((fields.capabilities as Json | undefined) ?? {})) capabilities[name] = 'inactive'
  const requirements = { ...(fields.requirements as Json), disabled_reason: (account.requirements as Json).disabled_reason }
  return { ...fields, capabilities, charges_enabled: false, payouts_enabled: false, requirements }
}

/** How the accounts declaration reads an account and works out what follows from it. */
export interface AccountAccess {
  /** The account object the path names (acting for it), made from the registry when first needed. */
  readonly named: (env: Env, call: OperationCall, id: string) => Json
  /** The account's fields that follow from the rest (capabilities, requirements, charges and payouts). */
  readonly following: (env: Env, call: OperationCall, account: Json) => Json
}

function rejectable(env: Env, call: OperationCall, access: AccountAccess): Json {
  const id = call.path.id ?? ''
  if (id !== call.scope.account) throw resourceMissing('account', id)
  const account = access.named(env, call, id)
  if (env.ports.accounts.get(id)?.platform === undefined) {
    throw invalidRequest(`Account '${id}' is a platform: only its connected accounts can be rejected.`)
  }
  return account
}

/**
 * `accounts.reject` and `accounts.unreject`: a platform rejects a connected account it is liable
 * for (Custom and Express; a Standard account answers for itself), which turns its charges and
 * payouts off with `requirements.disabled_reason` `rejected.platform_fraud`,
 * `rejected.platform_terms_of_service` or `rejected.platform_other`; unrejecting works its fields
 * out again. Each change emits `account.updated`.
 *
 * @example
 * await stripe.accounts.reject('acct_1', { reason: 'fraud_other' }) // { charges_enabled: false, requirements: { disabled_reason: 'rejected.platform_fraud', ... } }
 */
export function rejectionBehaviours(access: AccountAccess): Record<string, Behaviour<ResourcePorts>> {
  return {
    'accounts.reject'(call, _next, env) {
      const account = rejectable(env, call, access)
      if (account.type === 'standard') {
        throw invalidRequest('Standard accounts cannot be rejected: their platform is not liable for their negative balances.')
      }
      if (isRejected(account)) throw invalidRequest(`Account '${account.id}' has already been rejected.`)
      const marked = {
        ...account,
        requirements: { ...(account.requirements as Json), disabled_reason: disabledReasonOf(call.params.reason) },
      }
      const fields = rejectionOver(marked, access.following(env, call, marked))
      return env.engine.resource('account').set(call.scope, String(account.id), fields, call.origin)
    },
    'accounts.unreject'(call, _next, env) {
      const account = rejectable(env, call, access)
      if (!isRejected(account)) throw invalidRequest(`Account '${account.id}' is not rejected.`)
      const cleared = { ...account, requirements: { ...(account.requirements as Json), disabled_reason: null } }
      return env.engine.resource('account').set(call.scope, String(account.id), access.following(env, call, cleared), call.origin)
    },
  }
}
