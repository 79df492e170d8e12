import type { Scope } from '../mode.js'
import { tableError } from '../service-error.js'
import type { BillingContext } from './context.js'

/** Subscriptions that still bill: every status but the two terminal ones. */
const ENDED = new Set(['canceled', 'incomplete_expired'])

/**
 * Keeps one customer's billing in one currency, as the provider does ("You cannot combine
 * currencies on a single customer"): a pending invoice item or a new subscription in another
 * currency than the customer's live subscriptions and pending invoice items is refused before
 * anything is made. A pending item in another currency would otherwise never be billed (every
 * invoice of the customer takes only the items of its own currency).
 *
 * @example
 * checkCurrency(scope, 'cus_123', 'eur', 'invoice item', 'currency') // throws 400 when it bills in usd
 */
export function createCustomerCurrency(ctx: BillingContext) {
  const { r } = ctx

  /** The currency the customer is billed in now, or null when nothing of it bills yet. */
  function currencyOf(scope: Scope, customer: string): string | null {
    for (const sub of r.subscription().list(scope)) {
      if (sub.customer === customer && !ENDED.has(String(sub.status))) return String(sub.currency)
    }
    for (const ii of r.invoiceItem().list(scope)) {
      if (ii.customer === customer && ii.invoice == null) return String(ii.currency)
    }
    return null
  }

  return function checkCurrency(scope: Scope, customer: string, currency: string, what: string, param: string): void {
    const have = currencyOf(scope, customer)
    if (have === null || have === currency) return
    throw tableError('customer_currency_mismatch', { have, what, currency }, { param })
  }
}
