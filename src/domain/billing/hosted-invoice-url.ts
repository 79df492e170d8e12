import type { Scope } from '../mode.js'

/** The provider's host of hosted invoice pages; serve rewrites it to its own invoice page. */
export const HOSTED_INVOICE_BASE = 'https://invoice.stripe.com/i/'

/**
 * The page where the customer sees and pays a finalized invoice, in the provider's shape
 * (`https://invoice.stripe.com/i/<account>/test_<token>`); its token names the invoice, so the
 * customer-side pages find it by the URL alone.
 *
 * @example
 * hostedInvoiceUrl({ account: 'acct_1', mode: 'test' }, 'in_1') // 'https://invoice.stripe.com/i/acct_1/test_in_1'
 */
export function hostedInvoiceUrl(scope: Scope, id: string): string {
  return `${HOSTED_INVOICE_BASE}${scope.account}/${scope.mode === 'test' ? 'test_' : 'live_'}${id}`
}
