import type { Engine } from '../engine/engine.js'
import type { Json } from '../engine/list.js'
import type { Scope } from '../mode.js'
import { tableError } from '../service-error.js'
import { type CardDetails, enteredCard } from './card-number.js'
import { asPaymentMethod } from './legacy-card.js'
import { cardFields, cardOf, testCard } from './payment-method.js'
import { clockMonth } from './tokens-resource.js'

/** The card of a new payment method: its fields for the new id, and the token it used up, if any. */
export interface PaymentMethodCard {
  readonly card: (id: string) => Record<string, unknown>
  readonly used?: string
}

/**
 * Reads `paymentMethods.create`'s `card` (details, or `{ token }`: a test token or an unused card
 * token), refusing before anything changes; the answer gives the new payment method's card fields.
 *
 * @example
 * const make = paymentMethodCard(engine, scope, { token: 'tok_visa' })
 * make().card('pm_1') // { card: { brand: 'visa', last4: '4242', ... }, allow_redisplay: 'unspecified', ... }
 */
export function paymentMethodCard(engine: Engine, scope: Scope, given: unknown): () => PaymentMethodCard {
  if (typeof given !== 'object' || given === null) throw tableError('parameter_missing', { param: 'card' }, { param: 'card' })
  const token = (given as { token?: unknown }).token
  if (typeof token === 'string') {
    const test = testCard(token)
    if (test !== undefined) return () => ({ card: (id) => cardFields(id, test) })
    const stored = engine.resource('token').get(scope, token)
    const legacy = stored?.card as Json | undefined
    if (stored === undefined || legacy === undefined) {
      throw tableError('resource_missing', { kind: 'token', id: token }, { param: 'card[token]', status: 400 })
    }
    if (stored.used === true) throw tableError('token_already_used', { id: token }, { param: 'card[token]' })
    const pm = asPaymentMethod(legacy, cardOf({ id: legacy.id, card: legacy }))
    return () => ({ card: (id) => ({ ...cardFields(id, cardOf(pm)), card: pm.card }), used: stored.id })
  }
  const { year, month } = clockMonth(engine)
  const entered = enteredCard(given as CardDetails, year, month)
  return () => ({
    card(id) {
      const fields = cardFields(id, entered.card)
      const card = { ...(fields.card as Record<string, unknown>), exp_month: entered.expMonth, exp_year: entered.expYear }
      return { ...fields, card }
    },
  })
}
