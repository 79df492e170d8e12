import type { Json } from '#domain/index.js'
import type { Simulator } from '#simulator/index.js'
import { cardChoices, esc, jsValue, money, page } from './html.js'
import { priceLabel, productName } from './order-summary.js'

/** A page's answer: its status, HTML, or a redirect. */
export interface PageAnswer {
  readonly status: number
  readonly html?: string
  readonly location?: string
}

/**
 * The answer of a link to nothing the run holds.
 *
 * @example
 * missing('invoice').status // 404
 */
export const missing = (what: string): PageAnswer => ({
  status: 404,
  html: page('Not found', `<p>No such ${esc(what)} here: it may belong to another run, or the link is wrong.</p>`),
})

/**
 * The hosted page of an invoice (`hosted_invoice_url`): its amount and status, and, while it is
 * open, test cards to pay it with (`POST /__sim/customer/invoices/pay`).
 *
 * @example
 * invoicePage(sim, 'acct_1', 'test_in_1').html // '… Pay …'
 */
export function invoicePage(sim: Simulator, account: string, token: string): PageAnswer {
  const id = token.replace(/^(test|live)_/, '')
  const found = sim.admin.locate(id, 'invoice')
  if (found === undefined || found.scope.account !== account) return missing('invoice')
  const inv = found.object
  const pay = inv.status === 'open' ? `${cardChoices('card')}<button id="pay">Pay</button>` : ''
  const body = `<p>Invoice ${esc(inv.number ?? inv.id)}</p><p id="amount">${esc(money(inv.amount_due, inv.currency))}</p><p id="state">${esc(inv.status)}</p>${pay}`
  const script = `
const scope = ${jsValue(found.scope)}
const button = document.getElementById('pay')
if (button) button.onclick = async () => {
  try {
    const r = await act('invoices/pay', { invoice: ${jsValue(id)}, payment_method: picked(), account: scope.account, mode: scope.mode })
    if (r.error) return declined(r.error)
    document.getElementById('state').textContent = r.invoice.status
    say('Paid')
  } catch (e) { say('Refused: ' + e.message) }
}`
  return { status: 200, html: page('Invoice', body, script) }
}

/**
 * The 3-D Secure page a `redirect_to_url` action sends the customer to: complete or fail the
 * challenge, then back to the `return_url` with the provider's query (`redirect_status`).
 *
 * @example
 * authenticatePage(sim, 'pi_1').html // '… Complete … Fail …'
 */
export function authenticatePage(sim: Simulator, intent: string): PageAnswer {
  const kind = intent.startsWith('seti_') ? 'setup_intent' : 'payment_intent'
  const found = sim.admin.locate(intent, kind)
  if (found === undefined) return missing(kind === 'setup_intent' ? 'setup intent' : 'payment intent')
  const pi = found.object
  const action = pi.next_action as { redirect_to_url?: { return_url?: string } } | null
  const back = action?.redirect_to_url?.return_url ?? null
  const what = kind === 'setup_intent' ? 'Save this card for later payments' : money(pi.amount, pi.currency)
  const body = `<p>${esc(what)}</p><p id="state">${esc(pi.status)}</p><button id="complete">Complete authentication</button><button id="fail">Fail authentication</button>`
  const script = `
const scope = ${jsValue(found.scope)}; const back = ${jsValue(back)}; const secret = ${jsValue(pi.client_secret)}; const kind = ${jsValue(kind)}
async function finish(outcome) {
  try {
    const r = await act('authenticate', { [kind]: ${jsValue(intent)}, outcome, account: scope.account, mode: scope.mode })
    const status = r.status === 'succeeded' || r.status === 'processing' || r.status === 'requires_capture' ? 'succeeded' : 'failed'
    say(status === 'succeeded' ? 'Authenticated' : 'Authentication failed')
    if (back) {
      const u = new URL(back)
      u.searchParams.set(kind, ${jsValue(intent)}); u.searchParams.set(kind + '_client_secret', secret); u.searchParams.set('redirect_status', status)
      location.href = u.href
    }
  } catch (e) { say('Refused: ' + e.message) }
}
document.getElementById('complete').onclick = () => finish('complete')
document.getElementById('fail').onclick = () => finish('fail')`
  return { status: 200, html: page('3-D Secure', body, script) }
}

/**
 * The billing portal of a session: the customer's subscriptions (each item's product name, price
 * and quantity) with the actions its configuration allows (cancel, change to another of its
 * prices, named by product and price) and a card update.
 *
 * @example
 * portalPage(sim, 'test_abc').html // '… Cancel …'
 */
export function portalPage(sim: Simulator, token: string): PageAnswer {
  const id = `bps_${token.replace(/^(test|live)_/, '')}`
  const found = sim.admin.locate(id, 'billing_portal.session')
  if (found === undefined) return missing('billing portal session')
  const session = found.object
  const config = sim.admin.find(found.scope, String(session.configuration))
  const features = (config?.features ?? {}) as Record<string, Record<string, unknown> | undefined>
  const subs = sim.admin
    .objects('subscription', found.scope)
    .filter((s) => s.customer === session.customer && s.status !== 'canceled')
  const update = features.subscription_update
  const prices = ((update?.products ?? []) as { prices?: string[] }[]).flatMap((p) => p.prices ?? [])
  const choice = (id: string) => {
    const price = sim.admin.find(found.scope, id)
    return `${productName(sim, found.scope, price) || id} (${priceLabel(price) || id})`
  }
  const rows = subs.map((s) => {
    const items = (s.items as { data?: Json[] })?.data ?? []
    const price = (items[0]?.price as Json | undefined)?.id
    const controls: string[] = []
    if (features.subscription_cancel?.enabled === true) {
      controls.push(`<button data-cancel="${esc(s.id)}">Cancel</button>`)
    }
    if (update?.enabled === true && prices.length > 0) {
      const options = prices.map((p) => `<option value="${esc(p)}"${p === price ? ' selected' : ''}>${esc(choice(p))}</option>`)
      controls.push(
        `<select data-price-of="${esc(s.id)}">${options.join('')}</select><button data-update="${esc(s.id)}">Change plan</button>`,
      )
    }
    // A dated cancellation is shown by its day (UTC), as the portal tells the customer when it ends.
    const ends =
      s.cancel_at_period_end === true
        ? ' (cancels at the period end)'
        : typeof s.cancel_at === 'number'
          ? ` (cancels on ${new Date(s.cancel_at * 1000).toISOString().slice(0, 10)})`
          : ''
    const lines = items.map((item) => {
      const held = item.price as Json | undefined
      return `<span class="item" data-price="${esc(held?.id)}"><span class="product">${esc(productName(sim, found.scope, held))}</span> <span class="price">${esc(priceLabel(held))}</span> × <span class="quantity">${esc(item.quantity ?? 1)}</span></span>`
    })
    return `<li id="${esc(s.id)}">${lines.join(', ')}: <span class="status">${esc(s.status)}${esc(ends)}</span> ${controls.join(' ')}</li>`
  })
  const card =
    features.payment_method_update?.enabled === true ? `${cardChoices('card')}<button id="card">Save card</button>` : ''
  const back = typeof session.return_url === 'string' ? `<p><a id="return" href="${esc(session.return_url)}">Return</a></p>` : ''
  const body = `<ul id="subscriptions">${rows.join('')}</ul>${card}${back}`
  const script = `
const base = { session: ${jsValue(id)}, account: ${jsValue(found.scope.account)}, mode: ${jsValue(found.scope.mode)} }
async function run(path, extra) {
  try {
    const r = await act(path, Object.assign({}, base, extra))
    if (r.error) return declined(r.error)
    say('Saved'); location.reload()
  } catch (e) { say('Refused: ' + e.message) }
}
document.querySelectorAll('[data-cancel]').forEach((b) => { b.onclick = () => run('portal/cancel_subscription', { subscription: b.dataset.cancel }) })
document.querySelectorAll('[data-update]').forEach((b) => {
  b.onclick = () => run('portal/update_subscription', { subscription: b.dataset.update, price: document.querySelector('[data-price-of="' + b.dataset.update + '"]').value })
})
const card = document.getElementById('card')
if (card) card.onclick = () => run('portal/update_payment_method', { payment_method: picked() })`
  return { status: 200, html: page('Billing portal', body, script) }
}

/**
 * A payment link's URL: opens a checkout session of the link (as the provider does on a visit)
 * and sends the customer to its Checkout page.
 *
 * @example
 * paymentLinkPage(sim, 'https://buy.stripe.com/test_abc').location // '/__customer/checkout/cs_…'
 */
export function paymentLinkPage(sim: Simulator, providerUrl: string): PageAnswer {
  const found = sim.admin.locateBy('payment_link', 'url', providerUrl)
  if (found === undefined) return missing('payment link')
  try {
    const session = sim.customer.openPaymentLink(String(found.object.id), found.scope)
    return { status: 303, location: `/__customer/checkout/${String(session.id)}` }
  } catch (error) {
    return { status: 400, html: page('Payment link', `<p>${esc((error as Error).message)}</p>`) }
  }
}
