import type { Simulator } from '../../simulator/create-simulator.js'
import { authenticatePage, checkoutPage, invoicePage, type PageAnswer, paymentLinkPage, portalPage } from './hosted-pages.js'
import { CUSTOMER_PREFIX, providerUrlOf } from './provider-urls.js'
import { STRIPE_JS_PATH, stripeJs } from './stripe-js.js'

/** An answer of serve's customer side: status, headers and text. */
export interface CustomerAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
}

/** The admin API handler the customer actions go through (its customer routes only). */
export type AdminHandler = (req: Request) => Promise<Response>

const ACTION = /^\/__customer\/actions\/([A-Za-z0-9_/-]{1,300})$/

/**
 * Whether serve answers this path from its customer side (pages, actions, the browser library)
 * rather than the API: a prefix test, so API requests pay nothing more.
 *
 * @example
 * isCustomerPath('/v3/stripe.js') // true
 * isCustomerPath('/v1/customers') // false
 */
export function isCustomerPath(path: string): boolean {
  return path.startsWith(CUSTOMER_PREFIX) || path === STRIPE_JS_PATH
}

function html(answer: PageAnswer): CustomerAnswer {
  if (answer.location !== undefined) return { status: answer.status, headers: { Location: answer.location }, text: '' }
  return {
    status: answer.status,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' },
    text: answer.html ?? '',
  }
}

/** A path segment decoded; a malformed escape stays as it came (and finds nothing). */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

const notFound = (method: string, path: string): CustomerAnswer => ({
  status: 404,
  headers: { 'Content-Type': 'application/json' },
  text: JSON.stringify({
    error: { type: 'invalid_request_error', code: 'resource_missing', message: `no customer page ${method} ${path}` },
  }),
})

/**
 * Serve's customer side: the hosted pages (checkout, invoice, portal, payment link, 3-D Secure),
 * the actions they post (`POST /__customer/actions/<route>` runs the admin API's
 * `/__sim/customer/<route>`: a customer's page holds no admin token, as the provider's pages need
 * none, and reaches only the customer's actions), and the browser-library stand-in.
 *
 * @example
 * const answer = await customerSide(sim, admin, 'GET', new URL('http://127.0.0.1:12111/v3/stripe.js'), '')
 */
export async function customerSide(
  sim: Simulator,
  admin: AdminHandler,
  method: string,
  url: URL,
  text: string,
): Promise<CustomerAnswer> {
  const path = url.pathname
  if (path === STRIPE_JS_PATH && method === 'GET') {
    return {
      status: 200,
      headers: { 'Content-Type': 'application/javascript; charset=utf-8', 'Cache-Control': 'no-store' },
      text: stripeJs(),
    }
  }
  const action = ACTION.exec(path)
  if (action !== null && method === 'POST') {
    const res = await admin(
      new Request(`${url.origin}/__sim/customer/${action[1]}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: text === '' ? '{}' : text,
      }),
    )
    return { status: res.status, headers: { 'Content-Type': 'application/json' }, text: await res.text() }
  }
  if (method !== 'GET') return notFound(method, path)
  const [page = '', ...rest] = path.slice(CUSTOMER_PREFIX.length).split('/').map(decoded)
  if (page === 'checkout' && rest.length === 1) return html(checkoutPage(sim, rest[0] as string))
  if (page === 'invoice' && rest.length === 2) return html(invoicePage(sim, rest[0] as string, rest[1] as string))
  if (page === 'portal' && rest.length === 1) return html(portalPage(sim, rest[0] as string))
  if (page === 'authenticate' && rest.length === 1) {
    const intent = url.searchParams.get('payment_intent') ?? url.searchParams.get('setup_intent') ?? ''
    return html(authenticatePage(sim, intent))
  }
  if (page === 'pay' && rest.length === 1) {
    return html(paymentLinkPage(sim, providerUrlOf('pay/', rest[0] as string) as string))
  }
  return notFound(method, path)
}
