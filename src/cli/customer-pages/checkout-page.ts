import type { Simulator } from '#simulator/index.js'
import { missing, type PageAnswer } from './hosted-pages.js'
import { cardChoices, esc, jsValue, page } from './html.js'
import { lineItemsTable, prefilledEmail, totalsList } from './order-summary.js'
import { BANK_CHOICES, type CardChoice, SEPA_CHOICES } from './test-cards.js'

/** The bank debits a `payment` session offers: SEPA's IBANs in euros, the US accounts otherwise. */
function banksFor(mode: unknown, currency: unknown): readonly CardChoice[] {
  if (mode !== 'payment') return []
  return currency === 'eur' ? SEPA_CHOICES : BANK_CHOICES
}

/** The customer's email field: prefilled (and fixed, as the provider's page keeps it) when known. */
function emailField(email: string | null): string {
  const known = email === null ? '' : ` value="${esc(email)}" readonly`
  return `<p><label for="email">Email</label> <input id="email" name="email" type="email" autocomplete="email"${known}></p>`
}

// The issuer's challenge of a card that asks for 3-D Secure, and the Pay button: a decline (402)
// shows the provider's message and the session stays open; a bank debit goes on `processing`.
const PAY_SCRIPT = `
function challenge() {
  return new Promise((resolve) => {
    const d = document.createElement('dialog')
    d.id = 'service-sim-3ds'
    d.innerHTML = '<p>3-D Secure test challenge</p><p>Authenticate this payment?</p>' +
      '<button type="button" id="service-sim-3ds-complete">Complete</button> <button type="button" id="service-sim-3ds-fail">Fail</button>'
    document.body.appendChild(d)
    const done = (outcome) => { d.close(); d.remove(); resolve(outcome) }
    d.querySelector('#service-sim-3ds-complete').onclick = () => done('succeed')
    d.querySelector('#service-sim-3ds-fail').onclick = () => done('fail')
    d.showModal()
  })
}
document.getElementById('pay').onclick = async () => {
  try {
    const card = document.querySelector('#cards input:checked')
    const asked = card && card.hasAttribute('data-challenge') ? { authentication: await challenge() } : {}
    const typed = document.getElementById('email').value.trim()
    const email = typed === '' ? {} : { email: typed }
    const r = await act('checkout/' + session + '/complete', Object.assign({ payment_method: picked() }, email, asked, scope))
    if (r.error) return declined(r.error)
    say(r.payment_status === 'unpaid' ? 'Processing' : 'Paid')
    if (success) location.href = success
  } catch (e) { say('Refused: ' + e.message) }
}`

/**
 * The Checkout page of a session: what the customer buys (each line item's product name,
 * quantity, unit price and amount), the totals (subtotal, discount, shipping, tax, total), the
 * customer's email (prefilled from `customer_email` or the customer), and the test cards (and, in
 * `payment` mode, test bank debits: SEPA's IBANs in euros, whose delayed ones stay `processing`
 * three minutes, else US accounts). A card that asks for 3-D Secure first shows the challenge
 * (`#service-sim-3ds`). The page posts to the checkout completion (serve's
 * `POST /__sim/customer/checkout/{id}/complete`) and goes on to the session's `success_url`; a
 * decline shows the provider's message in `#message` (its code in `data-code`).
 *
 * @example
 * checkoutPage(sim, 'cs_test_1').html // '<!doctype html>… <table id="line-items">… Pay …'
 */
export function checkoutPage(sim: Simulator, id: string): PageAnswer {
  const found = sim.admin.locate(id, 'checkout.session')
  if (found === undefined) return missing('checkout session')
  const s = found.object
  if (s.status !== 'open') {
    return { status: 200, html: page('Checkout', `<p id="state">This checkout session is ${esc(s.status)}.</p>`) }
  }
  const success = typeof s.success_url === 'string' ? s.success_url.replaceAll('{CHECKOUT_SESSION_ID}', id) : null
  const cancel = typeof s.cancel_url === 'string' ? `<p><a id="cancel" href="${esc(s.cancel_url)}">Cancel</a></p>` : ''
  const what = s.mode === 'setup' ? '<p id="setup">Save a payment method for later payments.</p>' : ''
  const body = [
    `<p>Mode: ${esc(s.mode)}</p>`,
    what,
    lineItemsTable(sim, found.scope, s),
    totalsList(s),
    emailField(prefilledEmail(sim, found.scope, s)),
    cardChoices('card', banksFor(s.mode, s.currency)),
    `<button id="pay">${s.mode === 'setup' ? 'Save' : s.mode === 'subscription' ? 'Subscribe' : 'Pay'}</button>`,
    cancel,
  ].join('')
  // The platform's test mode is the completion's default: only another scope is named.
  const platform = found.scope.account === sim.platform.id && found.scope.mode === 'test'
  const scope = platform ? {} : found.scope
  const script = `const scope = ${jsValue(scope)}; const success = ${jsValue(success)}; const session = ${jsValue(id)}${PAY_SCRIPT}`
  return { status: 200, html: page('Checkout', body, script) }
}
