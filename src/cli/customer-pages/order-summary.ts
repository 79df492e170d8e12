import type { Json } from '#domain/index.js'
import type { Simulator } from '#simulator/index.js'
import { esc, money } from './html.js'

/** The account and mode an object lives in, as `sim.admin` names it. */
type Scope = Parameters<Simulator['admin']['find']>[0]

/**
 * A price as the customer reads it: its amount, and its interval when it recurs.
 *
 * @example
 * priceLabel({ unit_amount: 900, currency: 'usd', recurring: { interval: 'month', interval_count: 1 } }) // '9.00 USD / month'
 */
export function priceLabel(price: Json | undefined): string {
  if (price === undefined) return ''
  const amount =
    price.unit_amount === null || price.unit_amount === undefined
      ? String(price.unit_amount_decimal ?? '')
      : money(price.unit_amount, price.currency)
  const recurring = price.recurring as { interval?: string; interval_count?: number } | null | undefined
  if (recurring?.interval === undefined) return amount
  const count = Number(recurring.interval_count ?? 1)
  return `${amount} / ${count === 1 ? recurring.interval : `${count} ${recurring.interval}s`}`
}

/**
 * The name of a price's product (what the customer bought), else the price's nickname or id.
 *
 * @example
 * productName(sim, scope, price) // 'Stubborn Attachments'
 */
export function productName(sim: Simulator, scope: Scope, price: Json | undefined): string {
  if (price === undefined) return ''
  const product = typeof price.product === 'string' ? sim.admin.find(scope, price.product) : (price.product as Json | null)
  if (typeof product?.name === 'string') return product.name
  return typeof price.nickname === 'string' ? price.nickname : String(price.id)
}

/** A checkout session's stored line items, in the order they were given. */
function lineItemsOf(sim: Simulator, scope: Scope, session: string): Json[] {
  return sim.admin
    .objects('item', scope)
    .filter((i) => i.session === session)
    .reverse()
}

/**
 * The line items of a checkout session as its page lists them: each product's name, the quantity,
 * the unit price and the line's amount before discounts and tax.
 *
 * @example
 * lineItemsTable(sim, scope, session) // '<table id="line-items">…<td class="name">Mug</td>…'
 */
export function lineItemsTable(sim: Simulator, scope: Scope, session: Json): string {
  const rows = lineItemsOf(sim, scope, session.id).map((item) => {
    const price = item.price as Json | undefined
    const name = typeof item.description === 'string' ? item.description : productName(sim, scope, price)
    return (
      `<tr class="line-item" data-price="${esc(price?.id)}"><td class="name">${esc(name)}</td>` +
      `<td class="quantity">${esc(item.quantity ?? 1)}</td><td class="unit">${esc(priceLabel(price))}</td>` +
      `<td class="amount">${esc(money(item.amount_subtotal, item.currency))}</td></tr>`
    )
  })
  if (rows.length === 0) return ''
  return `<table id="line-items"><thead><tr><th>Item</th><th>Qty</th><th>Price</th><th>Amount</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
}

/**
 * A checkout session's totals: subtotal, discount, shipping and tax when there are any, and the
 * total (`#amount`; "due today" for a subscription).
 *
 * @example
 * totalsList(session) // '<dl id="totals"><dt>Subtotal</dt><dd id="subtotal">30.00 USD</dd>…'
 */
export function totalsList(session: Json): string {
  if (session.amount_total === null || session.amount_total === undefined) return ''
  const details = (session.total_details ?? {}) as { amount_discount?: number; amount_shipping?: number; amount_tax?: number }
  const row = (label: string, id: string, amount: number, sign = '') =>
    `<dt>${esc(label)}</dt><dd id="${id}">${esc(sign + money(amount, session.currency))}</dd>`
  const rows = [row('Subtotal', 'subtotal', Number(session.amount_subtotal ?? session.amount_total))]
  if (Number(details.amount_discount ?? 0) > 0) rows.push(row('Discount', 'discount', Number(details.amount_discount), '-'))
  if (Number(details.amount_shipping ?? 0) > 0) rows.push(row('Shipping', 'shipping', Number(details.amount_shipping)))
  if (Number(details.amount_tax ?? 0) > 0) rows.push(row('Tax', 'tax', Number(details.amount_tax)))
  rows.push(row(session.mode === 'subscription' ? 'Total due today' : 'Total', 'amount', Number(session.amount_total)))
  return `<dl id="totals">${rows.join('')}</dl>`
}

/**
 * The email the checkout page prefills: the session's `customer_email`, else its customer's email;
 * null when neither is known.
 *
 * @example
 * prefilledEmail(sim, scope, { customer_email: 'jenny@example.com' }) // 'jenny@example.com'
 */
export function prefilledEmail(sim: Simulator, scope: Scope, session: Json): string | null {
  if (typeof session.customer_email === 'string') return session.customer_email
  const customer = typeof session.customer === 'string' ? sim.admin.find(scope, session.customer) : undefined
  return typeof customer?.email === 'string' ? customer.email : null
}
