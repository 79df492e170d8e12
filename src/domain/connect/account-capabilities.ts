import { catalogueView } from '../engine/catalogue.js'
import { fieldsOf } from '../engine/catalogue-view.js'
import type { Behaviour } from '../engine/declaration.js'
import type { Json } from '../engine/list.js'
import { emitSnapshot } from '../events/emit-snapshot.js'
import type { ResourcePorts } from '../resource-ports.js'
import { resourceMissing } from '../service-error.js'

/** Capabilities every account is listed with, requested or not. */
const ALWAYS_LISTED = ['card_payments', 'transfers']

function requirementsOf(due: readonly string[]): Record<string, unknown> {
  return {
    alternatives: [],
    current_deadline: null,
    currently_due: [...due],
    disabled_reason: due.length > 0 ? 'requirements.fields_needed' : null,
    errors: [],
    eventually_due: [...due],
    past_due: [...due],
    pending_verification: [],
  }
}

/**
 * One capability of an account, as `/v1/accounts/{id}/capabilities/{capability}` shows it: its
 * status from the account's `capabilities` (`unrequested` when absent), what it still requires
 * (the account's due fields while it is `inactive`). The simulator does not record when each
 * capability was requested: `requested_at` is the account's creation time.
 *
 * @example
 * capabilityOf(account, 'transfers') // { id: 'transfers', object: 'capability', account: 'acct_…', status: 'inactive', ... }
 */
export function capabilityOf(account: Json, name: string): Json {
  const caps = (account.capabilities ?? {}) as Record<string, string>
  const status = caps[name] ?? 'unrequested'
  const due = status === 'inactive' ? ((account.requirements as { currently_due?: string[] }).currently_due ?? []) : []
  return {
    id: name,
    object: 'capability',
    account: account.id,
    future_requirements: requirementsOf([]),
    requested: name in caps,
    requested_at: name in caps ? (account.created as number) : null,
    requirements: requirementsOf(due),
    status,
  }
}

/** The fields of a capability a change altered, at their old values (`previous_attributes`), or undefined. */
function changed(before: Json, after: Json): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {}
  for (const k of ['requested', 'requested_at', 'status'] as const) if (before[k] !== after[k]) out[k] = before[k]
  return Object.keys(out).length > 0 ? out : undefined
}

/** Refuses a name the client declares no capability for (404, as for any missing object). */
function knownCapability(name: string): void {
  if (!Object.hasOwn(fieldsOf(catalogueView, 'Account.Capabilities'), name)) throw resourceMissing('capability', name)
}

/**
 * The capability operations of an account (list, retrieve, update with `requested`), read from
 * and written to the account object through its own operations, so a capability change is an
 * account update with its `account.updated` event, and a change of the capability itself emits
 * `capability.updated`.
 *
 * @example
 * const behaviours = capabilityBehaviours((call, env, id) => ownAccount(env, call.scope, id))
 */
export function capabilityBehaviours(
  accountOf: (call: Parameters<Behaviour<ResourcePorts>>[0], env: Parameters<Behaviour<ResourcePorts>>[2], id: string) => Json,
): Record<string, Behaviour<ResourcePorts>> {
  return {
    'accounts.listCapabilities'(call, _next, env) {
      const account = accountOf(call, env, call.path.id ?? '')
      const requested = Object.keys((account.capabilities ?? {}) as Record<string, string>)
      const names = [...new Set([...requested, ...ALWAYS_LISTED])].sort()
      return {
        object: 'list',
        data: names.map((n) => capabilityOf(account, n)),
        has_more: false,
        url: `/v1/accounts/${account.id}/capabilities`,
      }
    },
    'accounts.retrieveCapability'(call, _next, env) {
      const account = accountOf(call, env, call.path.accountId ?? '')
      const name = call.path.id ?? ''
      knownCapability(name)
      return capabilityOf(account, name)
    },
    'accounts.updateCapability'(call, _next, env) {
      const id = call.path.accountId ?? ''
      const name = call.path.id ?? ''
      const before = capabilityOf(accountOf(call, env, id), name)
      knownCapability(name)
      const requested = call.params.requested
      const params = requested === undefined ? {} : { capabilities: { [name]: { requested } } }
      const updated = env.engine.run('accounts.update', { ...call, path: { id }, params }) as Json
      const after = capabilityOf(updated, name)
      const previous = changed(before, after)
      if (previous !== undefined)
        emitSnapshot(env.ports.events, 'capability.updated', call.scope, after, call.origin, previous, true)
      return after
    },
  }
}
