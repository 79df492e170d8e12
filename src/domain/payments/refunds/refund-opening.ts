import { recordCash } from '../../customers/cash-balance-resource.js'
import type { Engine } from '../../engine/engine.js'
import type { Json } from '../../engine/list.js'
import type { Origin } from '../../events/emit-snapshot.js'
import type { Scope } from '../../mode.js'
import type { ResourcePorts } from '../../resource-ports.js'
import { invalidRequest } from '../../service-error.js'
import { debitDelay } from '../bank-debit.js'
import { cardOf } from '../payment-method.js'
import { INSTRUCTIONS_VALID_MS, waitingFields } from './refund-waiting.js'

type Params = Readonly<Record<string, unknown>>

/** Payment method types whose payments are bank debits: their refunds go back through the bank. */
const BANK_DEBITS: ReadonlySet<string> = new Set(['us_bank_account', 'sepa_debit', 'bacs_debit', 'au_becs_debit', 'acss_debit'])

const typeOf = (charge: Json): unknown => (charge.payment_method_details as { type?: unknown } | null)?.type

/**
 * Refuses `origin: 'customer_balance'` for a payment not made from the customer's cash balance:
 * only such a payment's money can go back there. Our wording (the provider's is not public).
 *
 * @example
 * checkOrigin(cardCharge, { origin: 'customer_balance' }) // throws, param 'origin'
 */
export function checkOrigin(charge: Json, params: Params): void {
  if (params.origin === undefined || params.origin === null) return
  if (params.origin !== 'customer_balance' || typeOf(charge) !== 'customer_balance') {
    throw invalidRequest(
      `origin: '${String(params.origin)}' can only refund a payment made with the customer_balance payment method; charge ${String(charge.id)} was paid with ${String(typeOf(charge))}.`,
      { param: 'origin' },
    )
  }
}

/**
 * The fields a new refund of `charge` starts with, beyond a plain one's (`succeeded`): a refund of
 * a bank transfer payment not sent back to the cash balance waits for the customer
 * (`requires_action`); one of a bank debit is `pending` until the bank returns the money.
 *
 * @example
 * openingFields(engine, scope, sepaCharge, {}) // { status: 'pending' }
 */
export function openingFields(engine: Engine, scope: Scope, charge: Json, params: Params): Record<string, unknown> {
  const type = typeOf(charge)
  if (type === 'customer_balance') return params.origin === 'customer_balance' ? {} : waitingFields(engine, scope, charge, params)
  return typeof type === 'string' && BANK_DEBITS.has(type) ? { status: 'pending' } : {}
}

/**
 * What follows the creation of a refund: one sent to the customer's cash balance credits it
 * (`refunded_from_payment`); one waiting for the customer expires when its instructions do; a
 * pending bank debit refund succeeds when the test bank answers (when its debit would have
 * settled); a refund of the refund-failure test card fails later at this instant.
 *
 * @example
 * followRefund(engine, ports, scope, refund, charge, origin)
 */
export function followRefund(
  engine: Engine,
  ports: ResourcePorts,
  scope: Scope,
  refund: Json,
  charge: Json,
  origin: Origin,
): void {
  const timers = ports.refundTimers
  if (refund.status === 'requires_action') {
    timers.later(scope, refund.id, INSTRUCTIONS_VALID_MS, 'expire')
    return
  }
  if (refund.status === 'pending') {
    const pm = typeof charge.payment_method === 'string' ? ports.paymentMethods.get(scope, charge.payment_method) : undefined
    timers.later(scope, refund.id, pm === undefined ? 0 : debitDelay(pm), 'succeed')
    return
  }
  if (typeOf(charge) === 'customer_balance' && typeof charge.customer === 'string') {
    recordCash(engine, scope, origin, {
      customer: charge.customer,
      currency: String(refund.currency),
      net: Number(refund.amount),
      type: 'refunded_from_payment',
      details: { refund: refund.id },
    })
    return
  }
  const card = (charge.payment_method_details as { card?: unknown } | null)?.card
  if (card !== undefined && cardOf({ id: charge.id, card }).refundFails === true) timers.later(scope, refund.id, 0, 'fail')
}
