import type { Json } from '../engine/list.js'
import type { Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import type { LineSpec, SubState } from './billing-types.js'
import { sec } from './billing-types.js'
import type { BillingContext } from './context.js'
import type { Cycles } from './cycles.js'
import type { Invoicing } from './invoicing.js'
import { isMetered, type Lines } from './lines.js'
import type { Payments } from './payments.js'
import { lineAmount, lineUnitDecimal } from './pricing.js'

/** `proration_behavior` as the client's types spell it (`create_prorations` is the default). */
export type ProrationBehavior = 'create_prorations' | 'none' | 'always_invoice'

/** What a subscription item bills: its price and (licensed) quantity. */
export interface ItemTerms {
  readonly price: Json
  readonly quantity: number
}

/** One item's change: `before` null when it is added, `after` null when it is deleted. */
export interface ItemChange {
  readonly item: string
  readonly before: ItemTerms | null
  readonly after: ItemTerms | null
}

/** A proration before it is an invoice item: the line spec and, for a credit, the debit it applies to. */
interface Proration {
  readonly spec: LineSpec
  readonly credited: Record<string, unknown> | null
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const

/** "15 Jan 2026" in UTC, as the provider's proration descriptions write the change date. */
function day(ms: number): string {
  const d = new Date(ms)
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`
}

/**
 * Prorations of licensed items changed mid-period, as the provider makes them: a credit for the
 * unused time on the old price and quantity and a charge for the remaining time on the new, each
 * the full period's amount times the fraction of the period left (to the second), rounded half away
 * from zero per line. They become pending invoice items (`proration: true`) that the next invoice
 * takes, or an invoice at once (`always_invoice`). Metered items are billed in arrears from usage
 * and are never prorated; a subscription in its trial bills nothing, so nothing is prorated.
 */
export type Prorations = ReturnType<typeof createProrations>

/** What prorating works with: billing's shared records, its lines, and the parts that invoice and charge. */
interface ProrationParts {
  readonly ctx: BillingContext
  readonly lines: Lines
  readonly invoicing: Invoicing
  readonly payments: Payments
  readonly cycles: Cycles
}

/**
 * Billing's proration members, each a plain function of the proration parts (`apply` is handed
 * around unbound as billing's `prorate`).
 *
 * @example
 * const prorations = createProrations(ctx, invoicing, payments, cycles)
 * prorations.preview(scope, s, [{ item: 'si_1', before, after }], now) // a credit and a charge line
 */
export function createProrations(ctx: BillingContext, invoicing: Invoicing, payments: Payments, cycles: Cycles) {
  const p: ProrationParts = { ctx, lines: ctx.lines, invoicing, payments, cycles }
  return {
    /** The proration lines `changes` would make at `at` (ms): what the upcoming invoice preview shows. */
    preview: (scope: Scope, s: SubState, changes: readonly ItemChange[], at: number): LineSpec[] =>
      plan(p, scope, s, changes, at).map((x) => x.spec),
    /** Prorates `changes` made at `at` (ms), as `behavior` says ({@link applyProrations}). */
    apply: (
      scope: Scope,
      s: SubState,
      changes: readonly ItemChange[],
      behavior: ProrationBehavior,
      at: number,
      origin: Origin,
    ): void => applyProrations(p, scope, s, changes, behavior, at, origin),
    /** Invoices the customer's pending items at once for the subscription ({@link invoiceNow}). */
    invoiceNow: (scope: Scope, s: SubState, origin: Origin): void => invoiceNow(p, scope, s, origin),
  }
}

/** The newest debit of this item for this period: a pending proration, else the invoice lines that billed it. */
function debitOf(ctx: BillingContext, scope: Scope, s: SubState, item: string): Record<string, unknown> | null {
  const end = sec(s.periodEnd)
  const pending = ctx.r
    .invoiceItem()
    .list(scope)
    .find((ii) => {
      const parent = ii.parent as { subscription_details?: { subscription_item?: unknown } } | null
      return (
        ii.invoice === null &&
        ii.proration === true &&
        Number(ii.amount) > 0 &&
        parent?.subscription_details?.subscription_item === item &&
        (ii.period as { end: number }).end === end
      )
    })
  if (pending !== undefined) return { type: 'invoice_item', invoice_item: pending.id }
  return invoicedDebitOf(ctx, scope, s, item, end)
}

/** The lines of the subscription's newest invoice that billed this item for the period ending at `end` (s). */
function invoicedDebitOf(
  ctx: BillingContext,
  scope: Scope,
  s: SubState,
  item: string,
  end: number,
): Record<string, unknown> | null {
  for (const invoice of ctx.r.invoice().list(scope)) {
    if (
      (invoice.parent as { subscription_details?: { subscription?: unknown } } | null)?.subscription_details?.subscription !==
      s.id
    )
      continue
    const ids = (invoice.lines as { data: Json[] }).data
      .filter((line) => {
        const details = (line.parent as { subscription_item_details?: { subscription_item?: unknown } | null })
          .subscription_item_details
        return details?.subscription_item === item && Number(line.amount) > 0 && (line.period as { end: number }).end === end
      })
      .map((line) => String(line.id))
    if (ids.length > 0) {
      return { type: 'invoice_line_items', invoice_line_item_details: { invoice: invoice.id, invoice_line_items: ids } }
    }
  }
  return null
}

/** One plan's common terms: where it is, when the change is made, and the lines made so far. */
interface PlanRun {
  readonly lines: Lines
  readonly scope: Scope
  readonly at: number
  readonly fraction: number
  readonly period: { start: number; end: number }
  readonly out: Proration[]
}

/** The credit and charge lines of `changes` made at `at` (ms), in the current period of `s`. */
function plan(p: ProrationParts, scope: Scope, s: SubState, changes: readonly ItemChange[], at: number): Proration[] {
  if (s.trialEnd !== null && at < s.trialEnd) return []
  const left = s.periodEnd - at
  if (left <= 0) return []
  const fraction = Math.floor(left / 1000) / Math.floor((s.periodEnd - s.periodStart) / 1000)
  const run: PlanRun = { lines: p.lines, scope, at, fraction, period: { start: at, end: s.periodEnd }, out: [] }
  for (const c of changes) {
    const before = c.before !== null && !isMetered(c.before.price) ? c.before : null
    const after = c.after !== null && !isMetered(c.after.price) ? c.after : null
    if (before !== null && after !== null && before.price.id === after.price.id && before.quantity === after.quantity) continue
    if (before !== null) addLine(run, before, c.item, -1, debitOf(p.ctx, scope, s, c.item))
    if (after !== null) addLine(run, after, c.item, 1, null)
  }
  return run.out
}

/** A credit (-1) or charge (+1) for the rest of the period on `terms`; none when it rounds to zero. */
function addLine(run: PlanRun, terms: ItemTerms, item: string, sign: 1 | -1, credited: Record<string, unknown> | null): void {
  const amount = sign * Math.round(lineAmount(terms.price, terms.quantity) * run.fraction)
  if (amount === 0) return
  const name = run.lines.productName(run.scope, terms.price)
  const words = sign < 0 ? 'Unused time on' : 'Remaining time on'
  run.out.push({
    spec: {
      price: terms.price,
      quantity: terms.quantity,
      amount,
      period: run.period,
      subscriptionItem: item,
      invoiceItem: null,
      description: `${words} ${terms.quantity} × ${name} after ${day(run.at)}`,
      proration: true,
      creditedItems:
        credited?.type === 'invoice_line_items'
          ? (credited.invoice_line_item_details as { invoice: string; invoice_line_items: string[] })
          : null,
    },
    credited,
  })
}

/** Pending proration invoice items from the plan (the provider's `invoiceitem.created` each). */
function createItems(ctx: BillingContext, scope: Scope, s: SubState, planned: readonly Proration[], origin: Origin): void {
  const { r } = ctx
  const sub = r.subscription().require(scope, s.id)
  const now = sec(s.timeline.now())
  for (const { spec, credited } of planned) {
    const price = spec.price as Json
    r.invoiceItem().create(scope, {}, origin, {
      amount: spec.amount,
      currency: sub.currency,
      customer: s.customer,
      date: now,
      description: spec.description,
      discountable: false,
      invoice: null,
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: s.id, subscription_item: spec.subscriptionItem },
      },
      period: { start: sec(spec.period.start), end: sec(spec.period.end) },
      pricing: {
        type: 'price_details',
        price_details: { price: price.id, product: price.product },
        unit_amount_decimal: lineUnitDecimal(price, spec.quantity, Math.abs(spec.amount)),
      },
      proration: true,
      proration_details: { credited_items: credited, discount_amounts: [] },
      quantity: spec.quantity,
      test_clock: s.timeline.clock,
    })
  }
}

/**
 * Prorates `changes` made at `at` (ms): nothing for `none`; pending invoice items for
 * `create_prorations`; for `always_invoice` those items invoiced at once (`subscription_update`,
 * finalized and paid like the first invoice), with the customer's other pending items.
 */
function applyProrations(
  p: ProrationParts,
  scope: Scope,
  s: SubState,
  changes: readonly ItemChange[],
  behavior: ProrationBehavior,
  at: number,
  origin: Origin,
): void {
  if (behavior === 'none') return
  const planned = plan(p, scope, s, changes, at)
  createItems(p.ctx, scope, s, planned, origin)
  if (behavior !== 'always_invoice' || planned.length === 0) return
  invoiceNow(p, scope, s, origin)
}

/**
 * Invoices the customer's pending items at once for the subscription (`subscription_update`),
 * finalized and paid like the first invoice.
 */
function invoiceNow(p: ProrationParts, scope: Scope, s: SubState, origin: Origin): void {
  const { r } = p.ctx
  const { lines } = p
  const sub = r.subscription().require(scope, s.id)
  const customer = r.customer().require(scope, s.customer)
  const currency = String(sub.currency)
  const specs = lines.pendingItems(scope, s.customer, currency).map((ii) => lines.pendingLine(scope, ii))
  const now = s.timeline.now()
  const invoice = p.invoicing.createInvoice({
    scope,
    customer,
    currency,
    sub: s,
    reason: 'subscription_update',
    specs,
    period: { start: now, end: now },
    origin,
    timeline: s.timeline,
  })
  r.subscription().set(scope, s.id, { latest_invoice: invoice.id, items: p.cycles.itemList(scope, s.id) }, origin)
  p.payments.finalizeAndPay(scope, String(invoice.id), origin, true)
}
