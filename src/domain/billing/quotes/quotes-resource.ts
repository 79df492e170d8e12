import { isPlainObject } from '../../engine/apply-params.js'
import type { Behaviour, OperationCall, ResourceDeclaration } from '../../engine/declaration.js'
import type { Engine } from '../../engine/engine.js'
import { type Json, pageV1 } from '../../engine/list.js'
import { entriesOf, integerParam, invalidParam, missingParam } from '../../engine/param-checks.js'
import type { ResourcePorts } from '../../resource-ports.js'
import { type PlannedPrice, plannedPrice } from '../catalog/inline-prices.js'
import { couponsOf, taxRatesOf } from '../subscriptions/subscription-params.js'
import { acceptQuote } from './quote-accept.js'
import { type QuoteLine, quoteAmounts } from './quote-amounts.js'
import { quotePdf } from './quote-pdf.js'

/** A quote is open for 30 days unless it says otherwise, as on the provider. */
const QUOTE_LIFETIME = 30 * 24 * 3600

const linesOf = (q: Json) => ((q.line_items as { data?: Json[] } | null)?.data ?? []) as Json[]
const idOf = (x: unknown) => (typeof x === 'string' ? x : String((x as Json | null)?.id))

function quoteOf(engine: Engine, call: OperationCall): Json {
  return engine.resource('quote').require(call.scope, call.path.id ?? '')
}

/** Refuses an action on a quote in another status than `status`. */
function requireStatus(quote: Json, status: string, action: string): void {
  if (quote.status !== status) throw invalidParam('id', `only a ${status} quote can be ${action} (this one is ${quote.status})`)
}

/** A quote line whose price may still be a draft of what its `price_data` describes. */
interface PlannedLine extends QuoteLine {
  readonly planned: PlannedPrice
}

/**
 * The quote's lines from `line_items` (a price, named or described by `price_data`, and a quantity
 * each, with the line's tax rates or the quote's `default_tax_rates`), checked: named prices
 * active, all of one currency, recurring ones of one interval. Draws line ids for new lines.
 */
function checkedLines(engine: Engine, call: OperationCall, ports: ResourcePorts, defaults: readonly Json[]): PlannedLine[] {
  const entries = entriesOf(call.params.line_items)
  let currency: string | undefined
  let interval: string | undefined
  return entries.map((raw, i) => {
    const p = `line_items[${i}]`
    const planned = isPlainObject(raw) ? plannedPrice(engine, call, raw, p, `price_draft_${i}`) : undefined
    if (planned === undefined || !isPlainObject(raw)) throw missingParam(`${p}[price]`)
    const price = planned.price
    if (typeof raw.price === 'string' && price.active === false) {
      throw invalidParam(`${p}[price]`, `the price ${price.id} is not active`)
    }
    if (currency !== undefined && price.currency !== currency)
      throw invalidParam(`${p}[price]`, 'all prices must share a currency')
    currency = String(price.currency)
    const rec = price.recurring as { interval: string; interval_count: number } | null
    if (rec !== null && rec !== undefined) {
      const key = `${rec.interval}/${rec.interval_count}`
      if (interval !== undefined && key !== interval) {
        throw invalidParam(`${p}[price]`, 'all recurring prices must share a billing interval')
      }
      interval = key
    }
    const quantity = raw.quantity === undefined ? 1 : integerParam(raw.quantity, `${p}[quantity]`, 0)
    const own = raw.tax_rates === undefined ? undefined : taxRatesOf(engine, call, raw.tax_rates, `${p}[tax_rates]`)
    return {
      id: ports.billing.newId('li'),
      price,
      quantity,
      taxRates: own ?? defaults,
      description: productName(engine, call, price),
      planned,
    }
  })
}

/** Makes the prices the lines' `price_data` describe (every check has passed): the lines as stored. */
function madeLines(lines: readonly (QuoteLine | PlannedLine)[]): QuoteLine[] {
  return lines.map((l) => {
    if (!('planned' in l)) return l
    const { planned, ...line } = l
    return { ...line, price: planned.make() }
  })
}

/** Lines as stored, read back as quote lines (the price as it is now, the rates as they were). */
function storedLines(engine: Engine, call: OperationCall, quote: Json): QuoteLine[] {
  return linesOf(quote).map((item) => ({
    id: item.id,
    price: engine.resource('price').get(call.scope, idOf(item.price)) ?? (item.price as Json),
    quantity: Number(item.quantity ?? 1),
    taxRates: ((item.taxes as { rate: Json }[] | undefined) ?? []).map((t) => t.rate),
    description: typeof item.description === 'string' ? item.description : null,
  }))
}

/** The name of a price's product (a line's description), or null when it has none. */
function productName(engine: Engine, call: OperationCall, price: Json): string | null {
  const product = typeof price.product === 'string' ? engine.resource('product').get(call.scope, price.product) : undefined
  return typeof product?.name === 'string' ? product.name : null
}

/** The discounts a quote's `discounts: [{ coupon }]` make: one `discount` object per coupon, naming the quote. */
function makeDiscounts(engine: Engine, call: OperationCall, coupons: readonly Json[], quoteId: string, customer: unknown) {
  return coupons.map((coupon) =>
    engine.resource('discount').create(call.scope, {}, call.origin, {
      source: { coupon, type: 'coupon' },
      customer: typeof customer === 'string' ? customer : null,
      quote: quoteId,
      start: engine.now(),
      end: null,
      subscription: null,
      invoice: null,
      invoice_item: null,
      promotion_code: null,
      checkout_session: null,
      subscription_item: null,
    }),
  )
}

/** The params a draft takes as they are (the rest are computed or checked). */
function plainFields(params: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const keep = ['description', 'header', 'footer', 'metadata', 'collection_method', 'days_until_due', 'subscription_data']
  return Object.fromEntries(Object.entries(params).filter(([k]) => keep.includes(k)))
}

/** Create and update share this: checked params, then the lines and amounts computed. */
function draftFields(engine: Engine, call: OperationCall, ports: ResourcePorts, before: Json | undefined) {
  const { customer, default_tax_rates: rawDefaults, discounts: rawDiscounts, line_items: rawLines, expires_at } = call.params
  if (typeof customer === 'string') engine.resource('customer').requireParam(call.scope, customer, 'customer')
  const defaults =
    rawDefaults === undefined
      ? ((before?.default_tax_rates as unknown[] | undefined) ?? []).map((id) =>
          engine.resource('tax_rate').require(call.scope, idOf(id)),
        )
      : taxRatesOf(engine, call, rawDefaults, 'default_tax_rates')
  const owner = typeof customer === 'string' ? customer : typeof before?.customer === 'string' ? before.customer : undefined
  const coupons =
    rawDiscounts === undefined ? undefined : couponsOf(engine, call, rawDiscounts, { customer: owner, now: engine.now() })
  const lines =
    rawLines === undefined && before !== undefined
      ? storedLines(engine, call, before)
      : checkedLines(engine, call, ports, defaults)
  if (expires_at !== undefined && !(Number(expires_at) > engine.now())) throw invalidParam('expires_at', 'must be in the future')
  const days = call.params.days_until_due
  if (call.params.collection_method === 'send_invoice' && days === undefined && before?.days_until_due == null) {
    throw missingParam('days_until_due')
  }
  return { defaults, coupons, lines }
}

/**
 * Quotes: a draft of prices and quantities with the amounts the customer would pay (discounts and
 * tax rates as invoices apply them), finalized (open, numbered, until `expires_at`), then accepted
 * (the subscription, its schedule when `subscription_data.effective_date` is later, or an invoice
 * for one-time lines) or canceled; an open quote not accepted in time is canceled by the clock.
 *
 * @example
 * const quote = await stripe.quotes.create({ customer: 'cus_…', line_items: [{ price: 'price_…', quantity: 2 }] })
 * await stripe.quotes.finalizeQuote(quote.id)
 * await stripe.quotes.accept(quote.id) // quote.subscription is the new subscription
 */
export const quotes: ResourceDeclaration<ResourcePorts> = {
  type: 'Quote',
  object: 'quote',
  idPrefix: 'qt',
  defaults: () => ({ status: 'draft', collection_method: 'charge_automatically' }),
  // Includable: the first lines are answered only when `expand[]` names them (all of them through
  // `quotes.listLineItems` and `quotes.listComputedUpfrontLineItems`).
  withheld: ['line_items', 'computed.upfront.line_items'],
  behaviours: {
    'quotes.create'(call, next, { engine, ports }) {
      const { defaults, coupons, lines: planned } = draftFields(engine, call, ports, undefined)
      const lines = madeLines(planned)
      const now = engine.now()
      const currency = String(lines[0]?.price.currency ?? 'usd')
      const expiresAt = call.params.expires_at === undefined ? now + QUOTE_LIFETIME : Number(call.params.expires_at)
      const quote = next(plainFields(call.params), (created) => {
        const discounts = makeDiscounts(engine, call, coupons ?? [], created.id, call.params.customer)
        return {
          customer: typeof call.params.customer === 'string' ? call.params.customer : null,
          currency,
          default_tax_rates: defaults.map((r) => r.id),
          discounts: discounts.map((d) => d.id),
          expires_at: expiresAt,
          status_transitions: { accepted_at: null, canceled_at: null, finalized_at: null },
          ...quoteAmounts(lines, discounts, currency, `/v1/quotes/${created.id}`),
        }
      }) as Json
      return quote
    },
    'quotes.update'(call, _next, { engine, ports }) {
      const quote = quoteOf(engine, call)
      requireStatus(quote, 'draft', 'updated')
      const { defaults, coupons, lines: planned } = draftFields(engine, call, ports, quote)
      const lines = madeLines(planned)
      const discounts =
        coupons === undefined
          ? ((quote.discounts as string[] | null) ?? []).map((id) => engine.resource('discount').require(call.scope, id))
          : makeDiscounts(engine, call, coupons, quote.id, call.params.customer ?? quote.customer)
      const currency = String(lines[0]?.price.currency ?? quote.currency)
      return engine.resource('quote').update(call.scope, quote.id, plainFields(call.params), call.origin, {
        ...(typeof call.params.customer === 'string' ? { customer: call.params.customer } : {}),
        ...(call.params.expires_at === undefined ? {} : { expires_at: Number(call.params.expires_at) }),
        currency,
        default_tax_rates: defaults.map((r) => r.id),
        discounts: discounts.map((d) => d.id),
        ...quoteAmounts(lines, discounts, currency, `/v1/quotes/${quote.id}`),
      })
    },
    'quotes.finalizeQuote'(call, _next, { engine, ports }) {
      const quote = quoteOf(engine, call)
      requireStatus(quote, 'draft', 'finalized')
      if (typeof quote.customer !== 'string') throw missingParam('customer')
      if (linesOf(quote).length === 0) throw missingParam('line_items')
      const expiresAt = call.params.expires_at === undefined ? Number(quote.expires_at) : Number(call.params.expires_at)
      if (!(expiresAt > engine.now())) throw invalidParam('expires_at', 'must be in the future')
      const count = engine
        .resource('quote')
        .list(call.scope)
        .filter((q) => q.number !== null && q.number !== undefined).length
      const r = engine.resource('quote')
      const open = r.put(call.scope, quote.id, {
        status: 'open',
        expires_at: expiresAt,
        number: `QT-${quote.id.slice(-8).toUpperCase()}-${String(count + 1).padStart(4, '0')}`,
        status_transitions: { ...(quote.status_transitions as object), finalized_at: engine.now() },
      })
      engine.emit('quote.finalized', call.scope, open, call.origin)
      ports.billing.quoteExpiry.schedule(call.scope, quote.id, expiresAt)
      return open
    },
    'quotes.accept'(call, _next, env) {
      const quote = quoteOf(env.engine, call)
      requireStatus(quote, 'open', 'accepted')
      return acceptQuote(call, env, quote, storedLines(env.engine, call, quote))
    },
    'quotes.cancel'(call, _next, { engine }) {
      const quote = quoteOf(engine, call)
      if (quote.status !== 'draft' && quote.status !== 'open') {
        throw invalidParam('id', `only a draft or open quote can be canceled (this one is ${quote.status})`)
      }
      const canceled = engine.resource('quote').put(call.scope, quote.id, {
        status: 'canceled',
        status_transitions: { ...(quote.status_transitions as object), canceled_at: engine.now() },
      })
      engine.emit('quote.canceled', call.scope, canceled, call.origin)
      return canceled
    },
    'quotes.listLineItems': listOf('line_items'),
    'quotes.listComputedUpfrontLineItems': listOf('computed_upfront_line_items'),
    'quotes.pdf'(call, _next, { engine }) {
      const quote = quoteOf(engine, call)
      if (quote.status === 'draft') throw invalidParam('id', 'a draft quote has no PDF; finalize it first')
      return quotePdf(quote)
    },
  },
}

/** A quote's line items, paged (`line_items` and the computed upfront ones are the same lines). */
function listOf(path: string): Behaviour<ResourcePorts> {
  return (call, _next, { engine }) => {
    const quote = quoteOf(engine, call)
    return pageV1(linesOf(quote), call.params, `/v1/quotes/${quote.id}/${path}`, 'item')
  }
}
