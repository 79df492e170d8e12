import type { VersionChange } from '../change.js'

type Obj = Record<string, unknown>
const get = (o: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Obj)[k] : undefined), o)

/**
 * 2025-03-31.basil moved an invoice's payment into its `payments` list and its subscription under
 * `parent`, billing periods from the subscription onto its items, and a line's price and
 * subscription under `pricing` and `parent`; a payment intent and a charge stopped naming the
 * invoice they pay. Walked back, each is read from where it lives now.
 *
 * @example
 * BASIL_BILLING.back?.invoice?.(invoice, ctx) // invoice.payment_intent, .charge, .paid, .subscription set
 * BASIL_BILLING.back?.payment_intent?.(intent, ctx) // intent.invoice: 'in_…' or null
 */
export const BASIL_BILLING: VersionChange = {
  version: '2025-03-31.basil',
  description: 'invoice payments, parents, billing periods on items and line pricing moved',
  expandable: ['payment_intent', 'charge', 'subscription', 'invoice'],
  back: {
    invoice(o, ctx) {
      const stored = typeof o.id === 'string' ? ctx.find(o.id) : undefined
      const payments = (get(o, 'payments', 'data') ?? get(stored, 'payments', 'data') ?? []) as Obj[]
      const paid = payments.find((p) => p.status === 'paid') ?? payments[0]
      const intent = get(paid, 'payment', 'payment_intent')
      const pi = typeof intent === 'string' ? intent : null
      o.payment_intent = pi
      const piObject = pi === null ? undefined : ctx.find(pi)
      o.charge = typeof piObject?.latest_charge === 'string' ? piObject.latest_charge : null
      o.paid = o.status === 'paid'
      o.paid_out_of_band = o.status === 'paid' && pi === null && o.amount_paid !== 0
      o.subscription = (get(o, 'parent', 'subscription_details', 'subscription') as string | undefined) ?? null
      o.quote = (get(o, 'parent', 'quote_details', 'quote') as string | undefined) ?? null
      const taxes = (o.total_taxes ?? []) as Obj[]
      o.total_tax_amounts = taxes.map((t) => ({
        amount: t.amount,
        inclusive: t.tax_behavior === 'inclusive',
        tax_rate: get(t, 'tax_rate_details', 'tax_rate') ?? null,
      }))
      o.tax = taxes.length === 0 ? null : taxes.reduce((s, t) => s + Number(t.amount ?? 0), 0)
      const discounts = (o.discounts ?? []) as unknown[]
      const first = discounts[0]
      o.discount = first !== undefined && typeof first === 'object' ? first : null
    },
    payment_intent(o, ctx) {
      o.invoice = typeof o.id === 'string' ? ctx.invoiceOf(o.id) : null
    },
    charge(o, ctx) {
      o.invoice = typeof o.payment_intent === 'string' ? ctx.invoiceOf(o.payment_intent) : null
    },
    line_item(o, ctx) {
      const price = get(o, 'pricing', 'price_details', 'price')
      const priceObject = typeof price === 'string' ? ctx.find(price) : (price as Obj | undefined)
      o.price = priceObject === undefined ? null : ctx.render(priceObject)
      o.plan = priceObject !== undefined && priceObject.type === 'recurring' ? ctx.render(planOf(priceObject)) : null
      const item = get(o, 'parent', 'subscription_item_details') as Obj | null | undefined
      const invoiceItem = get(o, 'parent', 'invoice_item_details') as Obj | null | undefined
      o.type = item ? 'subscription' : 'invoiceitem'
      o.subscription = (item?.subscription ?? invoiceItem?.subscription ?? null) as string | null
      o.subscription_item = (item?.subscription_item ?? null) as string | null
      o.invoice_item = (item?.invoice_item ?? get(invoiceItem, 'invoice_item') ?? undefined) as string | undefined
      if (o.invoice_item === undefined) delete o.invoice_item
      o.proration = Boolean(item?.proration ?? invoiceItem?.proration ?? false)
      o.proration_details = item?.proration_details ?? invoiceItem?.proration_details ?? { credited_items: null }
      o.amount_excluding_tax = o.amount
      o.unit_amount_excluding_tax = get(o, 'pricing', 'unit_amount_decimal') ?? null
      o.tax_amounts = []
      o.tax_rates = []
    },
    subscription(o) {
      const first = (get(o, 'items', 'data') as Obj[] | undefined)?.[0]
      o.current_period_start = first?.current_period_start ?? o.start_date ?? null
      o.current_period_end = first?.current_period_end ?? null
      const discounts = (o.discounts ?? []) as unknown[]
      o.discount = typeof discounts[0] === 'object' ? discounts[0] : null
    },
    'checkout.session'(o) {
      o.shipping_details = get(o, 'collected_information', 'shipping_details') ?? null
    },
  },
}

/** A recurring price as the `plan` object older lines and items carried beside it. */
function planOf(price: Obj): Obj {
  const recurring = (price.recurring ?? {}) as Obj
  return {
    id: price.id,
    object: 'plan',
    active: price.active,
    aggregate_usage: null,
    amount: price.unit_amount ?? null,
    amount_decimal: price.unit_amount_decimal ?? null,
    billing_scheme: price.billing_scheme,
    created: price.created,
    currency: price.currency,
    interval: recurring.interval,
    interval_count: recurring.interval_count,
    livemode: price.livemode,
    metadata: price.metadata,
    meter: recurring.meter ?? null,
    nickname: price.nickname ?? null,
    product: price.product,
    tiers_mode: price.tiers_mode ?? null,
    transform_usage: null,
    trial_period_days: recurring.trial_period_days ?? null,
    usage_type: recurring.usage_type ?? 'licensed',
  }
}
