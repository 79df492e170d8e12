import { UPDATABLE_CARD_FIELDS } from '../connect/external-accounts-resource.js'
import type { Behaviour, BehaviourEnv, OperationCall, ResourceDeclaration } from '../engine/declaration.js'
import { type Json, pageV1 } from '../engine/list.js'
import { emitSnapshot } from '../events/emit-snapshot.js'
import type { ResourcePorts } from '../resource-ports.js'
import { resourceMissing, tableError } from '../service-error.js'
import { attachSource, detachSource, SOURCE_STORE, sourceFrom, sourcesOf } from './customer-source-book.js'

type Env = BehaviourEnv<ResourcePorts>
type Params = Readonly<Record<string, unknown>>

/** The micro-deposit amounts (in cents) that verify a test bank account, as the provider documents them. */
const VERIFYING_AMOUNTS = [32, 45]

/** Fields of a card and of a bank account an update may set (the others are the provider's). */
const UPDATABLE: Readonly<Record<string, readonly string[]>> = {
  bank_account: ['account_holder_name', 'account_holder_type'],
  card: UPDATABLE_CARD_FIELDS,
}

function customerOf(env: Env, call: OperationCall, id: string): Json {
  return env.engine.resource('customer').require(call.scope, id)
}

/** The customer's source a path names, else 404 `No such source`. */
function found(env: Env, call: OperationCall): { customer: Json; source: Json } {
  const customer = customerOf(env, call, call.path.customerId ?? '')
  const id = call.path.id ?? ''
  const source = env.engine.resource(SOURCE_STORE).get(call.scope, id)
  if (source === undefined || source.customer !== customer.id) throw resourceMissing('source', id)
  return { customer, source }
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

/** Writes a changed source, emitting `customer.source.updated` with what it was. */
function save(env: Env, call: OperationCall, before: Json, after: Json): Json {
  const previous: Record<string, unknown> = {}
  for (const k of Object.keys(after)) if (JSON.stringify(after[k]) !== JSON.stringify(before[k])) previous[k] = before[k]
  if (Object.keys(previous).length === 0) return before
  const saved = env.engine.resource(SOURCE_STORE).put(call.scope, String(before.id), after)
  emitSnapshot(env.ports.events, 'customer.source.updated', call.scope, saved, call.origin, previous)
  return saved
}

const create: Behaviour<ResourcePorts> = (call, _next, env) => {
  const customer = customerOf(env, call, call.path.id ?? '')
  const make = sourceFrom(env.engine, call.scope, call.params.source, 'source')
  const made = make()
  const source = attachSource(env.engine, call.scope, String(customer.id), made, call.origin)
  if (call.params.metadata !== undefined) {
    env.engine.resource(SOURCE_STORE).put(call.scope, String(source.id), { metadata: metadataAfter({}, call.params.metadata) })
  }
  // A customer's first source becomes its default, as the provider documents.
  if (customer.default_source == null) {
    env.engine.resource('customer').set(call.scope, String(customer.id), { default_source: source.id }, call.origin)
  }
  return env.engine.resource(SOURCE_STORE).require(call.scope, String(source.id))
}

const update: Behaviour<ResourcePorts> = (call, _next, env) => {
  const { source } = found(env, call)
  const next: Json = { ...source }
  for (const f of UPDATABLE[String(source.object)] ?? []) {
    const v = call.params[f]
    if (v !== undefined) next[f] = f.startsWith('exp_') ? Number(v) : v === '' ? null : v
  }
  if (call.params.metadata !== undefined) next.metadata = metadataAfter(source.metadata, call.params.metadata)
  return save(env, call, source, next)
}

/**
 * `customers.verifySource`: a bank account source is verified by the documented micro-deposits
 * (32 and 45 cents); it answers a bank account, so the customers declaration serves it.
 *
 * @example
 * await stripe.customers.verifySource('cus_1', 'ba_1', { amounts: [32, 45] }) // { status: 'verified', ... }
 */
export const verifySource: Behaviour<ResourcePorts> = (call, _next, env) => {
  const { source } = found(env, call)
  if (source.object !== 'bank_account') throw tableError('source_not_verifiable', { id: String(source.id) }, { param: 'id' })
  if (source.status === 'verified') throw tableError('bank_account_already_verified', {}, { param: 'amounts' })
  const amounts = (Array.isArray(call.params.amounts) ? call.params.amounts : []).map(Number)
  if (amounts.length !== 2) throw tableError('microdeposit_amounts_invalid', {}, { param: 'amounts' })
  if (amounts.some((a, i) => a !== VERIFYING_AMOUNTS[i])) {
    throw tableError('bank_account_verification_failed', {}, { param: 'amounts' })
  }
  return save(env, call, source, { ...source, status: 'verified' })
}

/**
 * A customer's legacy sources (`/v1/customers/:id/sources`): cards from the provider's test card
 * tokens (`tok_visa`, `tok_mastercard`, `tok_chargeDeclined` is refused with its card error as the
 * issuer check at attach refuses it), from card tokens or card details, and bank accounts from
 * bank account tokens, verified with the documented micro-deposits 32 and 45. The first source
 * becomes the customer's `default_source`; deleting the default moves it to the newest other one.
 * Every change emits `customer.source.*`. A card is also its own payment method (same `card_…` id):
 * payment intents, charges and `payment_methods.list({ customer })` take it.
 *
 * @example
 * await stripe.customers.createSource('cus_1', { source: 'tok_visa' }) // { id: 'card_…', object: 'card', brand: 'Visa', customer: 'cus_1', ... }
 */
export const customerSources: ResourceDeclaration<ResourcePorts> = {
  type: 'CustomerSource',
  object: SOURCE_STORE,
  noun: 'source',
  idPrefix: 'card',
  // Tokens, test tokens and other objects' ids (`src_…`, `pm_…`) name a source too: the behaviours
  // that take them judge them; a stored card or bank account must exist.
  tokens: (id) => !/^(card|ba)_/.test(id),
  behaviours: {
    'customers.createSource': create,
    'customers.retrieveSource': (call, _next, env) => found(env, call).source,
    'customers.updateSource': update,
    'customers.deleteSource'(call, _next, env) {
      const { customer, source } = found(env, call)
      return detachSource(env.engine, call.scope, customer, source, call.origin)
    },
    'customers.listSources'(call, _next, env) {
      const customer = customerOf(env, call, call.path.id ?? '')
      const kind = call.params.object
      const data = sourcesOf(env.engine, call.scope, String(customer.id)).filter((s) => kind === undefined || s.object === kind)
      return pageV1(data, call.params, `/v1/customers/${customer.id}/sources`, 'source')
    },
  },
}
