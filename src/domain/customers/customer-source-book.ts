import type { Engine, Origin } from '../engine/engine.js'
import type { Json } from '../engine/list.js'
import type { Scope } from '../mode.js'
import { asPaymentMethod, type CardHolder, legacyCardFields } from '../payments/legacy-card.js'
import { cardOf, isCardToken, type TestCard, testCard } from '../payments/payment-method.js'
import { makeCard } from '../payments/tokens-resource.js'
import { ServiceError, tableError } from '../service-error.js'

/** The store a customer's legacy sources (cards and bank accounts) are kept in. */
export const SOURCE_STORE = 'card'

/** Test cards are made to expire years after any test run. */
const TEST_EXPIRY = { month: 12, year: 2034 }

/** The test card a customer may keep although charging it fails (the provider's 4000 0000 0000 0341). */
const ATTACHES_THEN_FAILS = '0341'

/** A new source before it is attached: the object, and the test card that fixes how a card charges. */
export interface NewSource {
  readonly object: Json
  readonly card: TestCard | undefined
}

function missingToken(id: string, param: string): ServiceError {
  return tableError('resource_missing', { kind: 'token', id }, { param, status: 400 })
}

/**
 * The provider checks a card with its issuer when a customer keeps it: a card that declines is
 * refused with its card error (402), except the one documented to attach and fail later.
 */
function checkAttach(card: TestCard | undefined): void {
  if (card === undefined || card.outcome.kind !== 'decline' || card.last4 === ATTACHES_THEN_FAILS) return
  const { code, declineCode, message } = card.outcome
  throw new ServiceError({ status: 402, type: 'card_error', code, message, extra: { decline_code: declineCode } })
}

/**
 * Works out the source a `source` (or legacy `card`, `bank_account`) param names, refusing before
 * anything changes: a test card token (`tok_visa`, `tok_chargeDeclined`), a token from
 * `tokens.create` (card or bank account, single use), or card details (`card[number]`, ...). The
 * answer makes it (a token is marked used).
 *
 * @example
 * const make = sourceFrom(engine, scope, 'tok_visa', 'source')
 * make().object.brand // 'Visa'
 */
export function sourceFrom(engine: Engine, scope: Scope, value: unknown, param: string): () => NewSource {
  if (typeof value === 'object' && value !== null) {
    const details = value as Record<string, unknown>
    const made = makeCard(engine, scope, details as Parameters<typeof makeCard>[2])
    const card = cardOf({ id: made.id, card: made })
    checkAttach(card)
    return () => ({ object: made, card })
  }
  if (typeof value !== 'string' || value === '') throw missingToken(String(value ?? ''), param)
  const test = isCardToken(value) ? testCard(value) : undefined
  if (test !== undefined) {
    checkAttach(test)
    return () => {
      const card = engine.build('Card', 'card', scope)
      Object.assign(card, legacyCardFields(card.id, test, TEST_EXPIRY.month, TEST_EXPIRY.year, {} as CardHolder))
      return { object: card, card: test }
    }
  }
  const tokens = engine.resource('token')
  const token = value.startsWith('tok_') || value.startsWith('btok_') ? tokens.get(scope, value) : undefined
  if (token === undefined) throw missingToken(value, param)
  if (token.used === true) throw tableError('token_already_used', { id: token.id }, { param })
  const inner = (token.card ?? token.bank_account) as Json | undefined
  if (inner === undefined) throw missingToken(value, param)
  const card = token.card === undefined ? undefined : cardOf({ id: inner.id, card: inner })
  checkAttach(card)
  return () => {
    tokens.put(scope, token.id, { used: true })
    return { object: structuredClone(inner), card }
  }
}

/**
 * Keeps a new source as the customer's and, for a card, its payment method twin (same `card_…`
 * id), so the card is usable wherever a payment method id is and is listed among the customer's
 * payment methods, as the provider documents for cards saved before payment methods. Emits
 * `customer.source.created`.
 *
 * @example
 * const card = attachSource(engine, scope, 'cus_1', sourceFrom(engine, scope, 'tok_visa', 'source')(), origin)
 */
export function attachSource(engine: Engine, scope: Scope, customer: string, made: NewSource, origin: Origin): Json {
  const object: Json = { ...made.object, customer, metadata: made.object.metadata ?? {} }
  if (object.object === 'bank_account') Object.assign(object, { account: undefined, status: object.status ?? 'new' })
  delete object.account
  engine.resource(SOURCE_STORE).insert(scope, object)
  if (made.card !== undefined) {
    const pms = engine.resource('payment_method')
    const twin = pms.build(scope, String(object.id), {})
    pms.insert(scope, Object.assign(twin, asPaymentMethod(object, made.card), { type: 'card', customer }))
  }
  engine.emit('customer.source.created', scope, object, origin)
  return object
}

/**
 * The customer's sources, newest first.
 *
 * @example
 * sourcesOf(engine, scope, 'cus_1').map((s) => s.id) // ['card_…']
 */
export function sourcesOf(engine: Engine, scope: Scope, customer: string): Json[] {
  return engine
    .resource(SOURCE_STORE)
    .list(scope)
    .filter((s) => s.customer === customer)
}

/**
 * Removes a source from the customer (and its payment method twin), emitting
 * `customer.source.deleted`; the customer's `default_source` moves to its newest other source, or
 * null, with `customer.updated`.
 *
 * @example
 * detachSource(engine, scope, customer, card, origin) // { id: 'card_…', object: 'card', deleted: true }
 */
export function detachSource(engine: Engine, scope: Scope, customer: Json, source: Json, origin: Origin): Json {
  const id = String(source.id)
  engine.resource(SOURCE_STORE).discard(scope, id)
  const pms = engine.resource('payment_method')
  if (pms.get(scope, id) !== undefined) pms.discard(scope, id)
  const gone = { ...source, customer: null }
  engine.emit('customer.source.deleted', scope, gone, origin)
  if (customer.default_source === id) {
    const next = sourcesOf(engine, scope, String(customer.id))[0]
    engine.resource('customer').set(scope, String(customer.id), { default_source: next?.id ?? null }, origin)
  }
  return { id, object: source.object, deleted: true }
}
