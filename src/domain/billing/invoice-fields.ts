import { INVOICE_FINALIZATION_GRACE_MS } from '#catalogue/rules.js'
import type { Json } from '../engine/list.js'
import type { Scope } from '../mode.js'
import { type NewInvoice, sec } from './billing-types.js'
import { amountsOf } from './invoice-amounts.js'
import type { InvoicingParts } from './invoicing.js'

/**
 * A new invoice's fields (a `draft`) from its line specs: its lines (new `il_` ids), their
 * discounts and taxes, and the invoice's amounts, customer and period.
 *
 * @example
 * const fields = invoiceFields(parts, scope, newInvoice, 'in_1') // fields.status === 'draft'
 */
export function invoiceFields(parts: InvoicingParts, scope: Scope, n: NewInvoice, id: string): Record<string, unknown> {
  const { r } = parts.ctx
  const now = n.timeline.now()
  const subId = n.unmade === undefined ? (n.sub?.id ?? null) : null
  const lineObjects = parts.lines.linesJson(scope, id, n.currency, subId, n.specs)
  const customer = n.customer
  const automatic = n.reason === 'subscription_cycle' || n.reason === 'subscription_update'
  const sub = n.unmade ?? (n.sub === null ? undefined : r.subscription().get(scope, n.sub.id))
  const amounts = amountsOf(parts, scope, lineObjects, sub?.discounts, now, n.currency, sub?.default_tax_rates)
  return {
    account_country: 'US',
    auto_advance: true,
    automatically_finalizes_at: automatic ? sec(now + INVOICE_FINALIZATION_GRACE_MS) : null,
    billing_reason: n.reason,
    collection_method: sub?.collection_method ?? 'charge_automatically',
    created: sec(now),
    currency: n.currency,
    customer: customer.id,
    customer_email: customer.email ?? null,
    customer_name: customer.name ?? null,
    customer_phone: customer.phone ?? null,
    customer_tax_exempt: customer.tax_exempt ?? 'none',
    default_tax_rates: sub?.default_tax_rates ?? [],
    effective_at: null,
    ending_balance: null,
    lines: {
      object: 'list',
      data: amounts.lines,
      has_more: false,
      total_count: amounts.lines.length,
      url: `/v1/invoices/${id}/lines`,
    },
    parent:
      n.sub === null
        ? null
        : {
            type: 'subscription_details',
            quote_details: null,
            subscription_details: { metadata: {}, subscription: subId },
          },
    period_end: sec(n.period.end),
    period_start: sec(n.period.start),
    starting_balance: 0,
    status: 'draft',
    status_transitions: { finalized_at: null, marked_uncollectible_at: null, paid_at: null, voided_at: null },
    test_clock: n.timeline.clock,
    webhooks_delivered_at: null,
    discounts: parts.discounts.active(scope, sub?.discounts, now).map((d) => d.id),
    ...amounts.fields,
  }
}

/**
 * Stores a new `draft` invoice (counted against the subscription's invoice limit), claims its
 * pending invoice items and keeps its billing state.
 *
 * @example
 * const invoice = createInvoice(parts, { scope, sub, customer, currency, specs, period, reason: 'manual', timeline, origin })
 */
export function createInvoice(parts: InvoicingParts, n: NewInvoice): Json {
  const { kernel, r, invoiceStates, key } = parts.ctx
  const { scope } = n
  if (n.sub !== null) parts.limits.countInvoice(n.sub, n.timeline.now())
  const id = n.id ?? kernel.ids.next('in', 24)
  const invoice = r.invoice().create(scope, {}, n.origin, invoiceFields(parts, scope, n, id), id)
  for (const spec of n.specs) {
    if (spec.invoiceItem !== null) r.invoiceItem().put(scope, spec.invoiceItem, { invoice: id })
  }
  invoiceStates.set(key(scope, id), {
    scope,
    id,
    timeline: n.timeline,
    subscription: n.sub?.id ?? null,
    job: undefined,
    attempts: 0,
  })
  if (n.sub !== null) endOnceDiscounts(parts, scope, n.sub.id, invoice, n.timeline.now())
  return invoice
}

/** A `once` discount that took something off this invoice leaves the subscription. */
function endOnceDiscounts(parts: InvoicingParts, scope: Scope, subId: string, invoice: Json, now: number): void {
  const { r } = parts.ctx
  const ended = parts.discounts.endOnce(scope, invoice.total_discount_amounts as { discount: string }[], now)
  if (ended.length === 0) return
  const sub = r.subscription().get(scope, subId)
  const left = ((sub?.discounts as unknown[] | undefined) ?? []).filter((d) => !ended.includes(String(d)))
  if (sub !== undefined) r.subscription().put(scope, subId, { discounts: left })
}
