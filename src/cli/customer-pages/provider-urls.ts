import { AUTHENTICATE_REDIRECT_BASE, HOSTED_INVOICE_BASE } from '#domain/index.js'

/** Where serve's own customer pages live. */
export const CUSTOMER_PREFIX = '/__customer/'

/** The provider's page hosts the simulation writes into objects, and serve's page for each. */
const REWRITES: readonly (readonly [string, string])[] = [
  ['https://checkout.stripe.com/c/pay/', 'checkout/'],
  ['https://billing.stripe.com/p/session/', 'portal/'],
  [HOSTED_INVOICE_BASE, 'invoice/'],
  ['https://buy.stripe.com/', 'pay/'],
  [AUTHENTICATE_REDIRECT_BASE, 'authenticate/'],
]

/**
 * Points the provider's page URLs in an API answer (`session.url`, `hosted_invoice_url`, portal and
 * payment link URLs, a 3-D Secure `redirect_to_url`) at serve's own pages, so a browser can
 * visit them. Done at serve's edge only: the simulation keeps the provider's URLs, so its state
 * and trace do not depend on the port. An answer naming none is returned as it is.
 *
 * @example
 * rewriteProviderUrls('{"url":"https://buy.stripe.com/test_1"}', 'http://127.0.0.1:12111')
 * // '{"url":"http://127.0.0.1:12111/__customer/pay/test_1"}'
 */
export function rewriteProviderUrls(text: string, origin: string): string {
  if (!text.includes('.stripe.com/')) return text
  let out = text
  for (const [from, to] of REWRITES) if (out.includes(from)) out = out.replaceAll(from, `${origin}${CUSTOMER_PREFIX}${to}`)
  return out
}

/**
 * The provider's URL of a page of serve's (the inverse of {@link rewriteProviderUrls}), for
 * finding a payment link by its stored `url`.
 *
 * @example
 * providerUrlOf('pay/', 'test_1') // 'https://buy.stripe.com/test_1'
 */
export function providerUrlOf(page: string, rest: string): string | undefined {
  const row = REWRITES.find(([, to]) => to === page)
  return row === undefined ? undefined : `${row[0]}${rest}`
}
