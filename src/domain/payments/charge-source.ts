import { SOURCE_STORE } from '../customers/customer-source-book.js'
import type { Engine } from '../engine/engine.js'
import type { Json } from '../engine/list.js'
import type { Scope } from '../mode.js'
import type { ResourcePorts } from '../resource-ports.js'
import { tableError } from '../service-error.js'
import { asPaymentMethod, legacyCardFields } from './legacy-card.js'
import { cardOf, isCardToken, type PaymentMethod, testCard } from './payment-method.js'

/** What a charge is made with: the payment method its attempt runs with, and the legacy card it shows as `source`. */
export interface ChargeSource {
  readonly paymentMethod: PaymentMethod
  readonly source: Json | null
}

/** Test cards are made to expire years after any test run. */
const TEST_EXPIRY = { month: 12, year: 2034 }

/**
 * Works out what `charges.create` charges, refusing before anything changes; the answer makes it
 * (a test token's new card or payment method, a token marked used). `source` is a test token
 * (`tok_visa`, `pm_card_visa`), a token (single use), or a payment method (of `customer` when it
 * has one); without `source`, the customer's `default_source`, else its
 * `invoice_settings.default_payment_method` (the simulator keeps payment methods, not legacy
 * sources).
 *
 * @example
 * const make = chargeSource(engine, ports, scope, 'tok_visa', null)
 * make().source?.brand // 'Visa'
 */
export function chargeSource(
  engine: Engine,
  ports: ResourcePorts,
  scope: Scope,
  source: unknown,
  customer: Json | undefined,
): () => ChargeSource {
  if (typeof source !== 'string') {
    if (customer === undefined) throw tableError('charge_source_missing', {}, { param: 'source' })
    const settings = customer.invoice_settings as { default_payment_method?: unknown } | null | undefined
    const fallback = customer.default_source ?? settings?.default_payment_method
    const pm = typeof fallback === 'string' ? ports.paymentMethods.get(scope, fallback) : undefined
    if (pm === undefined) throw tableError('charge_customer_no_source', {}, { param: 'card' })
    const card = engine.resource(SOURCE_STORE).get(scope, pm.id)
    return () => ({ paymentMethod: pm, source: card ?? null })
  }
  if (source.startsWith('card_')) return savedCard(engine, ports, scope, source, customer)
  const test = testCard(source)
  if (test !== undefined && isCardToken(source)) {
    return () => {
      const card = engine.build('Card', 'card', scope)
      Object.assign(card, legacyCardFields(card.id, test, TEST_EXPIRY.month, TEST_EXPIRY.year, {}))
      return { paymentMethod: asPaymentMethod(card, test), source: card }
    }
  }
  if (test !== undefined) {
    return () => ({ paymentMethod: ports.paymentMethods.resolve(scope, source, 'source'), source: null })
  }
  const tokens = engine.resource('token')
  const token = source.startsWith('tok_') ? tokens.get(scope, source) : undefined
  if (token !== undefined) {
    if (token.used === true) throw tableError('token_already_used', { id: token.id }, { param: 'source' })
    const card = token.card as Json | undefined
    if (token.type !== 'card' || card === undefined) {
      throw tableError('resource_missing', { kind: 'source', id: source }, { param: 'source', status: 400 })
    }
    return () => {
      tokens.put(scope, token.id, { used: true })
      return { paymentMethod: asPaymentMethod(card, cardOf({ id: card.id, card })), source: card }
    }
  }
  const pm = source.startsWith('pm_') ? ports.paymentMethods.get(scope, source) : undefined
  if (pm === undefined) throw tableError('resource_missing', { kind: 'source', id: source }, { param: 'source', status: 400 })
  if (pm.customer != null && pm.customer !== customer?.id) {
    throw tableError('payment_method_other_customer', { id: pm.id, customer: String(pm.customer) }, { param: 'source' })
  }
  return () => ({ paymentMethod: pm, source: null })
}

/**
 * A card a customer keeps (`card_…`, a legacy source): charged as its payment method twin, shown
 * as the charge's `source`. Only with the customer that keeps it, as the provider requires.
 */
function savedCard(
  engine: Engine,
  ports: ResourcePorts,
  scope: Scope,
  id: string,
  customer: Json | undefined,
): () => ChargeSource {
  const card = engine.resource(SOURCE_STORE).get(scope, id)
  const pm = ports.paymentMethods.get(scope, id)
  if (card === undefined || pm === undefined || card.customer !== customer?.id) {
    throw tableError('resource_missing', { kind: 'source', id }, { param: 'source', status: 400 })
  }
  return () => ({ paymentMethod: pm, source: card })
}
