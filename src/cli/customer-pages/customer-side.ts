import { type DeclaredInput, type DeclaredRoute, DeclaredRouter, type DeclaredTable, serveDeclared } from '#http/index.js'
import type { Simulator } from '#simulator/index.js'
import { type AdminHost, serveAdmin } from '../admin-api.js'
import { checkoutPage } from './checkout-page.js'
import { authenticatePage, invoicePage, type PageAnswer, paymentLinkPage, portalPage } from './hosted-pages.js'
import { CUSTOMER_PREFIX, providerUrlOf } from './provider-urls.js'
import { STRIPE_JS, STRIPE_JS_PATH } from './stripe-js.js'

/** An answer of serve's customer side: status, headers and text. */
export interface CustomerAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
}

/** What a customer-side route's handler gets: the host (whose admin API runs the actions), its simulator now, the request. */
interface PageCall extends DeclaredInput {
  readonly host: AdminHost
  readonly sim: Simulator
}

type PageRoute = DeclaredRoute<PageCall, CustomerAnswer>

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

const notFound = (method: string, path: string): CustomerAnswer => ({
  status: 404,
  headers: { 'Content-Type': 'application/json' },
  text: JSON.stringify({
    error: { type: 'invalid_request_error', code: 'resource_missing', message: `no customer page ${method} ${path}` },
  }),
})

/**
 * A customer's action posted by a page: runs the admin API's `/__sim/customer/<route>` (a
 * customer's page holds no admin token, as the provider's pages need none, and reaches only the
 * customer's actions).
 */
async function action({ host, url, text }: PageCall): Promise<CustomerAnswer> {
  const named = ACTION.exec(url.pathname)
  if (named === null) return notFound('POST', url.pathname)
  const body = await text()
  const res = await serveAdmin(host, 'POST', new URL(`${url.origin}/__sim/customer/${named[1]}`), () =>
    body === '' ? '{}' : body,
  )
  return { status: res.status, headers: { 'Content-Type': 'application/json' }, text: await res.text() }
}

/** The intent a 3-D Secure page is about, named in its query. */
function intentOf(url: URL): string {
  return url.searchParams.get('payment_intent') ?? url.searchParams.get('setup_intent') ?? ''
}

const page = (path: string, handler: (call: PageCall) => CustomerAnswer): PageRoute => ({
  method: 'GET',
  path: `${CUSTOMER_PREFIX}${path}`,
  raw: true,
  handler,
})

/**
 * Serve's customer side, declared as data: the browser-library stand-in, the actions the pages
 * post, and the hosted pages (checkout, invoice, portal, 3-D Secure, payment link).
 *
 * @example
 * customerRoutes.map((r) => `${r.method} ${r.path}`) // ['GET /v3/stripe.js', 'POST /__customer/actions/{route*}', ...]
 */
export const customerRoutes: readonly PageRoute[] = [
  {
    method: 'GET',
    path: STRIPE_JS_PATH,
    raw: true,
    handler: () => ({
      status: 200,
      headers: { 'Content-Type': 'application/javascript; charset=utf-8', 'Cache-Control': 'no-store' },
      text: STRIPE_JS,
    }),
  },
  { method: 'POST', path: `${CUSTOMER_PREFIX}actions/{route*}`, raw: true, handler: action },
  page('checkout/{id}', ({ sim, path }) => html(checkoutPage(sim, path.id ?? ''))),
  page('invoice/{account}/{token}', ({ sim, path }) => html(invoicePage(sim, path.account ?? '', path.token ?? ''))),
  page('portal/{token}', ({ sim, path }) => html(portalPage(sim, path.token ?? ''))),
  page('authenticate/{any}', ({ sim, url }) => html(authenticatePage(sim, intentOf(url)))),
  page('pay/{token}', ({ sim, path }) => html(paymentLinkPage(sim, providerUrlOf('pay/', path.token ?? '') as string))),
]

// Segments are read as a browser's URL is: decoded, a malformed escape kept as sent. Any other
// method on a page, or a path no page has, is one 404; a page's own throw is serve's 500.
const customerTable: DeclaredTable<AdminHost, PageCall, CustomerAnswer> = {
  router: new DeclaredRouter(customerRoutes, 'lenient'),
  call: (host, input) => ({ host, sim: host.sim, ...input }),
  unknown: (method, path) => notFound(method, path),
  refuse: (error) => {
    throw error
  },
}

/**
 * Serve's customer side: the hosted pages, the actions they post (`POST /__customer/actions/<route>`
 * runs the admin API's `/__sim/customer/<route>`), and the browser-library stand-in, served by
 * the HTTP layer's declared-route dispatcher from `customerRoutes`.
 *
 * @example
 * const answer = await customerSide(host, 'GET', new URL('http://127.0.0.1:12111/v3/stripe.js'), '')
 */
export function customerSide(host: AdminHost, method: string, url: URL, text: string): Promise<CustomerAnswer> {
  return serveDeclared(customerTable, host, { method, path: url.pathname, url, text: () => text })
}
