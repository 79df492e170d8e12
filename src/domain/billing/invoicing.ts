import { INVOICE_FINALIZATION_GRACE_MS } from '#catalogue/rules.js'
import { DAY } from '#kernel/time.js'
import type { Json } from '../engine/list.js'
import { emitSnapshot, NO_ORIGIN, type Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import { type InvoiceState, type NewInvoice, refOf, sec } from './billing-types.js'
import type { BillingContext } from './context.js'
import type { Credits } from './credits.js'
import type { Discounts } from './discounts.js'
import { hostedInvoiceUrl } from './hosted-invoice-url.js'
import { createInvoiceIntents } from './invoice-intents.js'
import type { BillingJobs } from './jobs.js'
import type { BillingLimits } from './limits.js'
import { isMetered } from './lines.js'
import type { Taxes } from './taxes.js'

/**
 * Invoices' life before payment: a new invoice from line specs (`draft`), its finalization after
 * the grace period (metered lines recounted, a number, `open`) and voiding.
 */
export type Invoicing = ReturnType<typeof createInvoicing>

export function createInvoicing(
  ctx: BillingContext,
  jobs: BillingJobs,
  limits: BillingLimits,
  discounts: Discounts,
  taxes: Taxes,
  credits: Credits,
) {
  const { kernel, events, r, lines, subs, invoiceStates, key, simLine } = ctx
  const intents = createInvoiceIntents(ctx)

  function invoiceFields(scope: Scope, n: NewInvoice, id: string): Record<string, unknown> {
    const now = n.timeline.now()
    const subId = n.unmade === undefined ? (n.sub?.id ?? null) : null
    const lineObjects = lines.linesJson(scope, id, n.currency, subId, n.specs)
    const customer = n.customer
    const automatic = n.reason === 'subscription_cycle' || n.reason === 'subscription_update'
    const sub = n.unmade ?? (n.sub === null ? undefined : r.subscription().get(scope, n.sub.id))
    const amounts = amountsOf(scope, lineObjects, sub?.discounts, now, n.currency, sub?.default_tax_rates)
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
      discounts: discounts.active(scope, sub?.discounts, now).map((d) => d.id),
      ...amounts.fields,
    }
  }

  /**
   * An invoice's lines with their discounts and taxes, and the invoice's amounts from them:
   * `total_discount_amounts`, `total_taxes`, subtotal and totals.
   */
  function amountsOf(
    scope: Scope,
    lineObjects: readonly Json[],
    ids: unknown,
    t: number | null,
    currency: string,
    rates: unknown,
  ) {
    const applied = discounts.apply(scope, lineObjects, ids, t, currency)
    const taxed = taxes.apply(scope, applied.lines, rates)
    return {
      lines: taxed.lines,
      fields: {
        total_discount_amounts: applied.totalDiscountAmounts,
        total_taxes: taxed.totalTaxes,
        ...lines.totals(taxed.lines, applied.discountTotal, taxed),
      },
    }
  }

  function createInvoice(n: NewInvoice): Json {
    const { scope } = n
    if (n.sub !== null) limits.countInvoice(n.sub, n.timeline.now())
    const id = n.id ?? kernel.ids.next('in', 24)
    const invoice = r.invoice().create(scope, {}, n.origin, invoiceFields(scope, n, id), id)
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
    if (n.sub !== null) endOnceDiscounts(scope, n.sub.id, invoice, n.timeline.now())
    return invoice
  }

  /** A `once` discount that took something off this invoice leaves the subscription. */
  function endOnceDiscounts(scope: Scope, subId: string, invoice: Json, now: number): void {
    const ended = discounts.endOnce(scope, invoice.total_discount_amounts as { discount: string }[], now)
    if (ended.length === 0) return
    const sub = r.subscription().get(scope, subId)
    const left = ((sub?.discounts as unknown[] | undefined) ?? []).filter((d) => !ended.includes(String(d)))
    if (sub !== undefined) r.subscription().put(scope, subId, { discounts: left })
  }

  function emitInvoice(scope: Scope, type: string, invoice: Json, origin: Origin, previous?: Record<string, unknown>) {
    emitSnapshot(events, type, scope, invoice, origin, previous)
  }

  /** Metered lines of a draft are recounted when it is finalized: usage processed in the grace period counts. */
  function refreshDraft(scope: Scope, invoice: Json, st: InvoiceState): Json {
    if (st.subscription === null) return invoice
    const sub = subs.get(key(scope, st.subscription))
    if (sub === undefined) return invoice
    const list = invoice.lines as { data: Json[] }
    const data = list.data.map((line) => {
      const price = r
        .price()
        .get(scope, String((line.pricing as { price_details?: { price?: unknown } } | null)?.price_details?.price))
      if (
        price === undefined ||
        !isMetered(price) ||
        (Number(line.amount) === 0 && line.description?.toString().startsWith('Trial'))
      )
        return line
      return lines.recount(scope, line, price, sub.customer)
    })
    // The discounts the draft was made with still apply (a `once` discount has ended since).
    const rates = r.subscription().get(scope, st.subscription)?.default_tax_rates
    const amounts = amountsOf(scope, data, invoice.discounts, null, String(invoice.currency), rates)
    return r.invoice().put(scope, String(invoice.id), { lines: { ...list, data: amounts.lines }, ...amounts.fields })
  }

  /**
   * A draft's lines after an edit (`invoices.addLines`, `updateLines`, `removeLines`): its amounts
   * again from them, with the draft's discounts and its subscription's tax rates, as the fields to
   * set (the caller sets them with the event it owes).
   */
  function draftLines(scope: Scope, invoice: Json, data: readonly Json[]): Record<string, unknown> {
    const subId = invoiceStates.get(key(scope, String(invoice.id)))?.subscription ?? null
    const rates = subId === null ? invoice.default_tax_rates : r.subscription().get(scope, subId)?.default_tax_rates
    const amounts = amountsOf(scope, data, invoice.discounts, null, String(invoice.currency), rates)
    const list = invoice.lines as Json
    return { lines: { ...list, data: amounts.lines, total_count: amounts.lines.length }, ...amounts.fields }
  }

  function nextNumber(scope: Scope, customerId: string): string {
    const customer = r.customer().get(scope, customerId)
    const prefix = typeof customer?.invoice_prefix === 'string' ? customer.invoice_prefix : 'INV'
    const seq = Number(customer?.next_invoice_sequence ?? 1)
    if (customer !== undefined) r.customer().put(scope, customerId, { next_invoice_sequence: seq + 1 })
    return `${prefix}-${String(seq).padStart(4, '0')}`
  }

  /**
   * The customer's balance at finalization, as the provider applies it: a credit (negative) lowers
   * `amount_due`, a negative total (a downgrade's prorations) becomes a credit, and the customer's
   * `balance` becomes the invoice's `ending_balance`. Nothing changes for a customer without a
   * balance and an invoice that is not negative.
   */
  function applyBalance(scope: Scope, invoice: Json, origin: Origin): Record<string, unknown> {
    const customerId = String(invoice.customer)
    const starting = Number(r.customer().get(scope, customerId)?.balance ?? 0)
    const total = Number(invoice.total)
    if (starting === 0 && total >= 0) return {}
    const sum = total + starting
    const ending = Math.min(0, sum)
    if (ending !== starting) r.customer().set(scope, customerId, { balance: ending }, origin)
    return {
      starting_balance: starting,
      ending_balance: ending,
      amount_due: Math.max(0, sum),
      amount_remaining: Math.max(0, sum),
    }
  }

  /**
   * Finalizes a draft. With `intent`, an invoice charged automatically that is not paid now gets its
   * payment intent before `invoice.finalized`, as the provider makes it at finalization.
   */
  function finalize(scope: Scope, id: string, origin: Origin, intent = false): Json {
    const st = invoiceStates.get(key(scope, id))
    let invoice = r.invoice().require(scope, id)
    if (invoice.status !== 'draft') return invoice
    if (st !== undefined) {
      if (st.job !== undefined) st.timeline.cancel(st.job)
      st.job = undefined
      invoice = refreshDraft(scope, invoice, st)
    }
    const now = (st?.timeline ?? simLine).now()
    // Billing credits first: the customer's balance covers what they leave.
    const credited = credits.apply(scope, invoice, now, origin)
    if (Object.keys(credited).length > 0) invoice = r.invoice().put(scope, id, credited)
    const balance = applyBalance(scope, invoice, origin)
    invoice = r.invoice().put(scope, id, {
      ...balance,
      status: 'open',
      number: nextNumber(scope, String(invoice.customer)),
      effective_at: sec(now),
      automatically_finalizes_at: null,
      hosted_invoice_url: hostedInvoiceUrl(scope, id),
      status_transitions: { ...(invoice.status_transitions as Json), finalized_at: sec(now) },
    })
    if (intent && invoice.collection_method === 'charge_automatically' && Number(invoice.amount_due) > 0) {
      intents.open(scope, id, origin)
      invoice = r.invoice().require(scope, id)
    }
    emitInvoice(scope, 'invoice.finalized', invoice, origin)
    if (invoice.collection_method === 'send_invoice') invoice = send(scope, invoice, st, now, origin)
    return invoice
  }

  /**
   * A `send_invoice` invoice at finalization: due `days_until_due` days later (the subscription's,
   * unless the invoice has its own `due_date`), `invoice.sent` (the provider emails it), and
   * `invoice.overdue` queued for the due date.
   */
  function send(scope: Scope, invoice: Json, st: InvoiceState | undefined, now: number, origin: Origin): Json {
    let due = typeof invoice.due_date === 'number' ? invoice.due_date * 1000 : null
    if (due === null && st?.subscription != null) {
      const days = Number(r.subscription().get(scope, st.subscription)?.days_until_due ?? 0)
      due = now + days * DAY
    }
    const sent = due === null ? invoice : r.invoice().put(scope, String(invoice.id), { due_date: sec(due) })
    emitInvoice(scope, 'invoice.sent', sent, origin)
    if (st !== undefined && due !== null) st.job = st.timeline.at(due, jobs.overdue, refOf(scope, String(invoice.id)))
    return sent
  }

  /** An invoice is `overdue` once its due date passes unpaid; its subscription turns `past_due`. */
  function overdue(scope: Scope, id: string): void {
    const invoice = r.invoice().require(scope, id)
    emitInvoice(scope, 'invoice.overdue', invoice, NO_ORIGIN)
    const subId = invoiceStates.get(key(scope, id))?.subscription ?? null
    const sub = subId === null ? undefined : r.subscription().get(scope, subId)
    if (subId !== null && (sub?.status === 'active' || sub?.status === 'trialing'))
      r.subscription().set(scope, subId, { status: 'past_due' }, NO_ORIGIN)
  }

  /** `open` -> `uncollectible`: no more automatic attempts (it can still be paid or voided). */
  function markUncollectible(scope: Scope, id: string, origin: Origin): Json {
    const st = invoiceStates.get(key(scope, id))
    if (st?.job !== undefined) st.timeline.cancel(st.job)
    if (st !== undefined) st.job = undefined
    const invoice = r.invoice().require(scope, id)
    const now = (st?.timeline ?? simLine).now()
    const updated = r.invoice().put(scope, id, {
      status: 'uncollectible',
      next_payment_attempt: null,
      status_transitions: { ...(invoice.status_transitions as Json), marked_uncollectible_at: sec(now) },
    })
    emitInvoice(scope, 'invoice.marked_uncollectible', updated, origin)
    return updated
  }

  /** `invoices.sendInvoice`: `invoice.sent` again for an open invoice. */
  function resend(scope: Scope, id: string, origin: Origin): Json {
    const invoice = r.invoice().require(scope, id)
    emitInvoice(scope, 'invoice.sent', invoice, origin)
    return invoice
  }

  function scheduleFinalize(scope: Scope, id: string): void {
    const st = invoiceStates.get(key(scope, id))
    if (st === undefined) return
    st.job = st.timeline.at(st.timeline.now() + INVOICE_FINALIZATION_GRACE_MS, jobs.finalize, refOf(scope, id))
  }

  function voidInvoice(scope: Scope, id: string, origin: Origin): Json {
    const st = invoiceStates.get(key(scope, id))
    if (st?.job !== undefined) st.timeline.cancel(st.job)
    const invoice = r.invoice().require(scope, id)
    const now = (st?.timeline ?? simLine).now()
    credits.restore(scope, invoice, now, origin)
    intents.cancelOpen(scope, id, origin)
    const updated = r.invoice().put(scope, id, {
      status: 'void',
      amount_remaining: 0,
      next_payment_attempt: null,
      status_transitions: { ...(invoice.status_transitions as Json), voided_at: sec(now) },
    })
    emitInvoice(scope, 'invoice.voided', updated, origin)
    return updated
  }

  return {
    intents,
    draftLines,
    invoiceFields,
    createInvoice,
    emitInvoice,
    finalize,
    scheduleFinalize,
    voidInvoice,
    overdue,
    markUncollectible,
    resend,
  }
}
