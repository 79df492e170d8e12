import type { Behaviour, BehaviourEnv, OperationCall, ResourceDeclaration } from '../engine/declaration.js'
import type { Json } from '../engine/list.js'
import { pageV1 } from '../engine/list.js'
import { emitSnapshot } from '../events/emit-snapshot.js'
import type { ResourcePorts } from '../resource-ports.js'
import { resourceMissing, tableError } from '../service-error.js'
import { externalAccountOf } from './account-object.js'

type Env = BehaviourEnv<ResourcePorts>
type Params = Readonly<Record<string, unknown>>

/** The provider's test debit card tokens an account can be paid out to, by brand. */
const DEBIT_TOKENS: Readonly<Record<string, { brand: string; last4: string }>> = {
  tok_visa_debit: { brand: 'Visa', last4: '5556' },
  tok_mastercard_debit: { brand: 'MasterCard', last4: '8210' },
  tok_visa_debit_us_transferSuccess: { brand: 'Visa', last4: '5556' },
}

/** The calendar year of a unix time, near enough for a test card's expiry (mean Gregorian year). */
const yearOf = (seconds: number) => 1970 + Math.floor(seconds / 31_556_952)

/** Card tokens the provider knows that are not debit cards: refused as payout destinations. */
const isCardToken = (v: string) => v.startsWith('tok_')

/** The account object a sub-resource path names (acting for it, so it is the scope's own). */
function accountOf(env: Env, call: OperationCall, id: string): Json {
  const account = env.engine.resource('account').get(call.scope, id)
  if (account === undefined || id !== call.scope.account) throw resourceMissing('account', id)
  return account
}

function listOf(account: Json): Json[] {
  return [...(((account.external_accounts as Json | undefined)?.data as Json[] | undefined) ?? [])]
}

/**
 * Writes the account's external accounts, then runs an empty account update so what follows from
 * them (the `external_account` requirement, capability statuses) is worked out again, with
 * `account.updated` where that changed something.
 */
function save(env: Env, call: OperationCall, account: Json, data: Json[]): void {
  const r = env.engine.resource('account')
  const list = account.external_accounts as Json
  r.put(call.scope, String(account.id), { external_accounts: { ...list, data, total_count: data.length } })
  env.engine.run('accounts.update', { ...call, path: { id: String(account.id) }, params: {} })
}

/** A number for a new external account's id, above every one the account holds. */
function nextNumber(data: readonly Json[]): number {
  let n = data.length
  for (const o of data) n = Math.max(n, Number(String(o.id).slice(-8)) || 0)
  return n + 1
}

/** The external account a create names: a bank token, bank details, or a debit card token. */
function made(env: Env, call: OperationCall, account: Json, data: readonly Json[]): Json {
  const param = call.params.external_account
  const accountId = String(account.id)
  if (typeof param === 'string') {
    const debit = DEBIT_TOKENS[param]
    if (debit !== undefined) {
      const card = env.engine.build('Card', 'card', call.scope)
      return {
        ...card,
        account: accountId,
        available_payout_methods: ['standard', 'instant'],
        brand: debit.brand,
        country: 'US',
        currency: 'usd',
        customer: null,
        default_for_currency: false,
        exp_month: 12,
        exp_year: yearOf(env.engine.now()) + 1,
        fingerprint: `${accountId.slice(5, 13)}${debit.last4}`,
        funding: 'debit',
        last4: debit.last4,
        metadata: {},
        status: null,
      }
    }
    if (isCardToken(param)) throw tableError('invalid_card_type', {}, { param: 'external_account' })
    if (!param.startsWith('btok_')) {
      throw tableError('resource_missing', { kind: 'token', id: param }, { param: 'external_account', status: 400 })
    }
  }
  const bank = externalAccountOf(accountId, param, String(account.country), nextNumber(data))
  return { ...bank, id: String(bank.id), default_for_currency: false, metadata: {} }
}

/** The list with `chosen` as the only default of its currency. */
function withDefault(data: readonly Json[], chosen: Json): Json[] {
  return data.map((o) =>
    o.id === chosen.id
      ? chosen
      : o.currency === chosen.currency && o.default_for_currency
        ? { ...o, default_for_currency: false }
        : o,
  )
}

function metadataAfter(current: unknown, given: unknown): Record<string, unknown> {
  if (given === '') return {}
  const out: Record<string, unknown> = { ...((current as Params | undefined) ?? {}) }
  if (typeof given === 'object' && given !== null) {
    for (const [k, v] of Object.entries(given as Params)) {
      if (v === '' || v === null) delete out[k]
      else out[k] = v
    }
  }
  return out
}

/**
 * Fields of a card an update may set, on an account's external card and on a customer's card alike.
 *
 * @example
 * UPDATABLE_CARD_FIELDS.includes('exp_month') // true
 */
export const UPDATABLE_CARD_FIELDS: readonly string[] = [
  'address_city',
  'address_country',
  'address_line1',
  'address_line2',
  'address_state',
  'address_zip',
  'exp_month',
  'exp_year',
  'name',
]

/** Fields of a bank account and of a card an update may set (the others are the provider's). */
const UPDATABLE: Readonly<Record<string, readonly string[]>> = {
  bank_account: ['account_holder_name', 'account_holder_type', 'account_type'],
  card: UPDATABLE_CARD_FIELDS,
}

const create: Behaviour<ResourcePorts> = (call, _next, env) => {
  const account = accountOf(env, call, call.path.id ?? '')
  const data = listOf(account)
  const fresh = made(env, call, account, data)
  // The first of its currency is its default, as is one asked to be.
  const first = !data.some((o) => o.currency === fresh.currency)
  const isDefault = first || call.params.default_for_currency === true || call.params.default_for_currency === 'true'
  const obj = { ...fresh, default_for_currency: isDefault, metadata: metadataAfter({}, call.params.metadata) }
  save(env, call, account, isDefault ? withDefault([obj, ...data], obj) : [obj, ...data])
  emitSnapshot(env.ports.events, 'account.external_account.created', call.scope, obj, call.origin)
  return obj
}

function found(env: Env, call: OperationCall): { account: Json; data: Json[]; obj: Json } {
  const account = accountOf(env, call, call.path.accountId ?? '')
  const data = listOf(account)
  const id = call.path.id ?? ''
  const obj = data.find((o) => o.id === id)
  if (obj === undefined) throw resourceMissing('external account', id)
  return { account, data, obj }
}

const update: Behaviour<ResourcePorts> = (call, _next, env) => {
  const { account, data, obj } = found(env, call)
  const next: Json = { ...obj }
  for (const f of UPDATABLE[String(obj.object)] ?? []) if (call.params[f] !== undefined) next[f] = call.params[f]
  if (call.params.metadata !== undefined) next.metadata = metadataAfter(obj.metadata, call.params.metadata)
  const makeDefault = call.params.default_for_currency === true || call.params.default_for_currency === 'true'
  if (makeDefault) next.default_for_currency = true
  const previous: Record<string, unknown> = {}
  for (const k of Object.keys(next)) if (JSON.stringify(next[k]) !== JSON.stringify(obj[k])) previous[k] = obj[k]
  if (Object.keys(previous).length === 0) return obj
  const replaced = data.map((o) => (o.id === obj.id ? next : o))
  save(env, call, account, makeDefault ? withDefault(replaced, next) : replaced)
  emitSnapshot(env.ports.events, 'account.external_account.updated', call.scope, next, call.origin, previous)
  return next
}

const del: Behaviour<ResourcePorts> = (call, _next, env) => {
  const { account, data, obj } = found(env, call)
  // The provider keeps a payout destination in the account's own currency.
  if (obj.default_for_currency === true && obj.currency === account.default_currency) {
    throw tableError('external_account_default_delete', {}, { param: 'id' })
  }
  save(
    env,
    call,
    account,
    data.filter((o) => o.id !== obj.id),
  )
  emitSnapshot(env.ports.events, 'account.external_account.deleted', call.scope, { ...obj, deleted: true }, call.origin)
  return { id: obj.id, object: obj.object, deleted: true }
}

/**
 * The external accounts of an account (`/v1/accounts/:id/external_accounts`): bank accounts (a
 * test bank token such as `btok_us_verified`, or bank details) and debit cards (`tok_visa_debit`),
 * kept in the account's `external_accounts` list, the one account requirements read. The first of
 * a currency is its default; `default_for_currency` moves the default; the default of the
 * account's own currency cannot be deleted. Each change emits `account.external_account.*`.
 *
 * @example
 * engine.run('accounts.createExternalAccount', { scope, origin, path: { id: 'acct_1' }, params: { external_account: 'btok_us_verified' } })
 * // { id: 'ba_…', object: 'bank_account', account: 'acct_1', default_for_currency: true, last4: '6789', ... }
 */
export const externalAccounts: ResourceDeclaration<ResourcePorts> = {
  type: 'ExternalAccount',
  // Cards share the list; `bank_account` is the kind most accounts hold and what a delete of one answers.
  object: 'bank_account',
  noun: 'external account',
  idPrefix: 'extacct',
  // Not kept in a store of their own (they are the account's list), and a param typed as one
  // (`destination`) often names an account instead: the behaviours that read them check them.
  tokens: () => true,
  behaviours: {
    'accounts.createExternalAccount': create,
    'accounts.retrieveExternalAccount': (call, _next, env) => found(env, call).obj,
    'accounts.updateExternalAccount': update,
    'accounts.deleteExternalAccount': del,
    'accounts.listExternalAccounts'(call, _next, env) {
      const account = accountOf(env, call, call.path.id ?? '')
      const kind = call.params.object
      const data = listOf(account).filter((o) => kind === undefined || o.object === kind)
      return pageV1(data, call.params, `/v1/accounts/${account.id}/external_accounts`, 'external_account')
    },
  },
}
