import { checkEmail, checkMetadata } from '../engine/checks.js'
import type { BehaviourEnv, ResourceDeclaration } from '../engine/declaration.js'
import { type Json, pageV1, passesRange } from '../engine/list.js'
import { emitSnapshot } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import type { ResourcePorts } from '../resource-ports.js'
import { invalidRequest, resourceMissing, tableError } from '../service-error.js'
import { capabilityBehaviours } from './account-capabilities.js'
import { accountDefaults, controllerOf, externalAccountOf, providedFlags, requestedAfter } from './account-object.js'
import { rejectionBehaviours, rejectionOver } from './account-rejection.js'
import { derived } from './account-requirements.js'

type Params = Readonly<Record<string, unknown>>
type Env = BehaviourEnv<ResourcePorts>

/** Params that are not fields of the object: the behaviour turns them into fields. */
const NOT_FIELDS = new Set(['capabilities', 'external_account', 'account_token', 'documents', 'controller'])

/** A new object has no member set to `undefined` (an update's `undefined` removes one). */
function withoutUndefined(obj: Json): Json {
  for (const k of Object.keys(obj)) if (obj[k] === undefined) delete obj[k]
  return obj
}

function fieldParams(params: Params): Params {
  const out: Record<string, unknown> = {}
  for (const k in params) if (!NOT_FIELDS.has(k)) out[k] = params[k]
  return out
}

function checkCountry(value: unknown): void {
  if (value !== undefined && (typeof value !== 'string' || !/^[A-Za-z]{2}$/.test(value))) {
    throw tableError('parameter_invalid', { param: 'country', detail: 'expected a two-letter ISO code' }, { param: 'country' })
  }
}

const EMPTY_ADDRESS = { city: null, country: null, line1: null, line2: null, postal_code: null, state: null }

/** The individual of an individual account: a `person`, with flags for the numbers it was given. */
function individualOf(account: Json, params: Params, env: Env, scope: Scope): Record<string, unknown> {
  const id = `person_${account.id.slice(5)}`
  const person = (account.individual as Json | undefined) ?? (env.engine.build('Person', 'person', scope, { id }) as Json)
  const flagged = providedFlags(person, params.individual, { ssn_last_4: 'ssn_last_4_provided', id_number: 'id_number_provided' })
  return { ...(flagged ?? person), id: person.id || id, account: account.id, created: account.created }
}

/** The company of any other business type, as the provider shows a new one, with flags for its tax numbers. */
function companyOf(account: Json, params: Params): Record<string, unknown> {
  const company: Record<string, unknown> = {
    address: { ...EMPTY_ADDRESS },
    directors_provided: false,
    executives_provided: false,
    name: null,
    owners_provided: false,
    phone: null,
    tax_id_provided: false,
    ...(account.company as Record<string, unknown> | undefined),
  }
  const flagged = providedFlags(company, params.company, { tax_id: 'tax_id_provided', vat_id: 'vat_id_provided' }) ?? company
  return { ...flagged, address: { ...EMPTY_ADDRESS, ...(flagged.address as Params | undefined) } }
}

/**
 * The parts of an account that follow from params the object does not echo: requested
 * capabilities, the external account, the identity of the business type (`individual` for an
 * individual, `company` otherwise; the other one `undefined`, so an update removes it), then what
 * follows from all of it (capability statuses, requirements, enabled flags).
 */
function following(obj: Json, params: Params, onboarded: boolean, env: Env, scope: Scope): Json {
  const view: Json = { ...obj }
  view.capabilities = requestedAfter(obj.capabilities, params.capabilities)
  if (params.external_account !== undefined && params.external_account !== '') {
    const list = obj.external_accounts as { data: unknown[]; total_count: number }
    const bank = externalAccountOf(obj.id, params.external_account, String(obj.country), list.total_count + 1)
    // A new external account becomes the default for its currency and replaces the old default.
    view.external_accounts = { ...list, data: [bank], total_count: 1 }
  }
  if (params.controller !== undefined && typeof params.controller === 'object') {
    view.controller = { ...(obj.controller as Json), ...(params.controller as Params) }
  }
  if (view.business_type === 'individual') {
    view.individual = individualOf(view, params, env, scope)
    if ('company' in view) view.company = undefined
  } else if (typeof view.business_type === 'string') {
    view.company = companyOf(view, params)
    if ('individual' in view) view.individual = undefined
  }
  // A platform's rejection outlasts every later change (`account-rejection.ts`).
  return rejectionOver(obj, { ...view, ...derived(view, { onboarded }) })
}

/**
 * The account object of the scope's own account, made from the registry the first time a
 * request needs it: the platform and accounts the operator set up exist before any request.
 */
function own(env: Env, scope: Scope): Json {
  const r = env.engine.resource('account')
  const found = r.get(scope, scope.account)
  if (found !== undefined) return found
  const account = env.ports.accounts.get(scope.account)
  if (account === undefined) throw resourceMissing('account', scope.account)
  const connected = account.platform !== undefined
  const o = account.opening
  const type = o.type ?? (connected ? 'custom' : 'standard')
  const obj = r.build(scope, account.id, {
    type,
    ...(o.email === undefined ? {} : { email: o.email }),
    ...(o.country === undefined ? {} : { country: o.country }),
    ...(o.metadata === undefined ? {} : { metadata: o.metadata }),
  })
  obj.created = Math.floor(account.created / 1000)
  obj.controller = controllerOf(type, connected)
  // Onboarded: the capabilities a payments account has.
  if (o.onboarded) obj.capabilities = { card_payments: 'active', transfers: 'active' }
  return r.insert(scope, { ...obj, ...derived(obj, { onboarded: o.onboarded }) })
}

/** The account a path names, which must be the one the request acts for (the path acts as `Service-Account`). */
function named(env: Env, scope: Scope, id: string): Json {
  if (id !== scope.account) throw resourceMissing('account', id)
  return own(env, scope)
}

function onboarded(env: Env, id: string): boolean {
  return env.ports.accounts.get(id)?.opening.onboarded ?? true
}

/**
 * Accounts: a platform creates connected accounts (`accounts.create`, in the mode of its key),
 * lists them, and reads, updates or deletes one by naming it in the path (which acts for it, as
 * `Service-Account` does); every account reads itself with `accounts.retrieveCurrent`. Each
 * account's object lives in its own scope, made from the registry the first time a request needs
 * it. Requested capabilities become `active` once the platform has provided what they require.
 *
 * @example
 * engine.run('accounts.create', { scope, origin, path: {}, params: { type: 'custom', capabilities: { transfers: { requested: true } } } })
 * // { id: 'acct_…', capabilities: { transfers: 'inactive' }, requirements: { currently_due: ['business_profile.mcc', …] }, … }
 */
export const accounts: ResourceDeclaration<ResourcePorts> = {
  type: 'Account',
  object: 'account',
  idPrefix: 'acct',
  idLength: 16,
  defaults: accountDefaults,
  behaviours: {
    ...capabilityBehaviours((call, env, id) => named(env, call.scope, id)),
    ...rejectionBehaviours({
      named: (env, call, id) => named(env, call.scope, id),
      following: (env, call, account) => following(account, {}, onboarded(env, String(account.id)), env, call.scope),
    }),
    'accounts.create'(call, _next, env) {
      const params = call.params
      checkEmail(params.email, 'email')
      checkCountry(params.country)
      checkMetadata(params.metadata)
      const r = env.engine.resource('account')
      const account = env.ports.accounts.create({
        platform: call.scope.account,
        modes: [call.scope.mode],
        onboarded: false,
      })
      const scope = { account: account.id, mode: call.scope.mode }
      const type = typeof params.type === 'string' ? params.type : 'custom'
      const country = typeof params.country === 'string' ? { country: params.country.toUpperCase() } : {}
      const obj = r.build(scope, account.id, { ...fieldParams(params), ...country, type })
      obj.created = Math.floor(account.created / 1000)
      obj.controller = controllerOf(type, true)
      const created = r.insert(scope, withoutUndefined(following(obj, params, false, env, scope)))
      emitSnapshot(env.ports.events, 'account.updated', scope, created, call.origin, undefined, true)
      return created
    },
    'accounts.retrieve'(call, _next, env) {
      const id = named(env, call.scope, call.path.id ?? '').id
      return env.engine.resource('account').retrieve(call.scope, id)
    },
    'accounts.retrieveCurrent'(call, _next, env) {
      own(env, call.scope)
      return env.engine.resource('account').retrieve(call.scope, call.scope.account)
    },
    'accounts.update'(call, _next, env) {
      const id = call.path.id ?? ''
      // Checked before the account's object is first made: a refused request changes nothing.
      if (id !== call.scope.account) throw resourceMissing('account', id)
      checkEmail(call.params.email, 'email')
      checkMetadata(call.params.metadata)
      named(env, call.scope, id)
      const done = onboarded(env, id)
      return env.engine
        .resource('account')
        .update(call.scope, id, fieldParams(call.params), call.origin, (next) =>
          following(next as Json, call.params, done, env, call.scope),
        )
    },
    'accounts.list'(call, _next, env) {
      const mode = call.scope.mode
      const items = env.ports.accounts
        .list()
        .filter((a) => a.platform === call.scope.account && a.modes.has(mode))
        .reverse()
        .map((a) => own(env, { account: a.id, mode }))
        .filter((o) => call.params.created === undefined || passesRange(o.created, call.params.created, 'created'))
      return pageV1(items, call.params, '/v1/accounts', 'account')
    },
    'accounts.del'(call, _next, env) {
      const id = call.path.id ?? ''
      if (id !== call.scope.account) throw resourceMissing('account', id)
      const account = env.ports.accounts.get(id)
      if (account?.platform === undefined) {
        throw invalidRequest(`Account '${id}' is a platform: only connected accounts can be deleted.`, { param: 'id' })
      }
      if (call.scope.mode === 'live') {
        const type = env.engine.resource('account').get(call.scope, id)?.type ?? account.opening.type ?? 'custom'
        if (type === 'standard') {
          throw invalidRequest('Standard accounts created with a live key cannot be deleted.', { param: 'id' })
        }
        if (env.ports.ledger.balance(call.scope).some((b) => b.available !== 0 || b.pending !== 0)) {
          throw invalidRequest('This account cannot be deleted until all its balances are zero.', { param: 'id' })
        }
      }
      own(env, call.scope)
      const gone = env.engine.resource('account').delete(call.scope, id, call.origin)
      env.ports.accounts.close(id)
      return gone
    },
  },
}
