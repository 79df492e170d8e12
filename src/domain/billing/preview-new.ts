import type { Json } from '../engine/list.js'
import { NO_ORIGIN } from '../events/emit-snapshot.js'
import { SlidingLog } from '../limits/sliding-log.js'
import type { Scope } from '../mode.js'
import { type LineSpec, type SubState, sec } from './billing-types.js'
import type { Interval } from './calendar.js'
import type { BillingContext } from './context.js'
import type { Discounts } from './discounts.js'
import type { Invoicing } from './invoicing.js'
import { isMetered } from './lines.js'
import type { Timeline } from './timelines.js'

/** A subscription as `subscriptions.create` would make it, checked but not made. */
export interface UnmadeSubscription {
  readonly customer: Json
  readonly currency: string
  /** Its items: `id` (a preview's, not stored), `price` (a draft for `price_data`) and `quantity` (licensed only). */
  readonly items: readonly Json[]
  readonly interval: Interval
  readonly count: number
  /** When it would start (ms): now on the customer's timeline. */
  readonly start: number
  readonly periodEnd: number
  readonly trialEnd: number | null
  /** The share of a full period the first one bills (a `billing_cycle_anchor` before a full period). */
  readonly prorate: number
  readonly coupons: readonly Json[]
  readonly defaultTaxRates: readonly Json[]
  readonly collectionMethod: string
  readonly timeline: Timeline
  /** `discounts` asked expanded: shown as objects, since no store holds them to expand from. */
  readonly expandDiscounts?: boolean
  /** Its pending items' lines as `invoice_items` change and add to them. */
  readonly invoiceItems?: (pending: readonly LineSpec[]) => LineSpec[]
  /** `subscription_details.proration_date` (unix seconds), shown on the invoice's subscription details. */
  readonly prorationDate?: number
}

/**
 * The first invoice of a subscription not made yet, as `subscriptions.create` would bill it (its
 * licensed items for the first period, free in a trial; its metered items at 0; the customer's
 * pending invoice items; its coupons' discounts and its tax rates), made of nothing stored.
 *
 * @example
 * const previewNew = createPreviewNew(ctx, invoicing, discounts)
 * previewNew(scope, { customer, currency: 'usd', items: [{ id: 'si_upcoming_0', price, quantity: 2 }], ... })
 * // { id: 'upcoming_in_...', object: 'invoice', amount_due: 2000, ... }
 */
export function createPreviewNew(ctx: BillingContext, invoicing: Invoicing, discounts: Discounts) {
  const { kernel, engine, lines } = ctx
  return function previewNew(scope: Scope, u: UnmadeSubscription): Json {
    const customerId = String(u.customer.id)
    // Only what line pricing reads of a cycle: nothing here is remembered or queued.
    const s: SubState = {
      scope,
      id: '',
      customer: customerId,
      timeline: u.timeline,
      interval: u.interval,
      count: u.count,
      anchor: u.trialEnd ?? u.start,
      n: 0,
      periodStart: u.start,
      periodEnd: u.periodEnd,
      trialEnd: u.trialEnd,
      job: undefined,
      expiry: undefined,
      invoiceLogs: [],
      quantityLog: new SlidingLog(),
    }
    const period = { start: u.start, end: u.periodEnd }
    const trial = u.trialEnd !== null
    const specs: LineSpec[] = u.items.map((item) => {
      if (!isMetered(item.price as Json)) return lines.itemLine(scope, s, item, period, trial, u.prorate)
      const line = lines.itemLine(scope, s, item, period, true)
      return { ...line, quantity: 0, amount: 0, description: `0 × ${lines.productName(scope, item.price as Json)}` }
    })
    const pending = lines.pendingItems(scope, customerId, u.currency).map((ii) => lines.pendingLine(scope, ii))
    specs.push(...(u.invoiceItems?.(pending) ?? pending))
    const id = `upcoming_${kernel.ids.next('in', 24)}`
    const unmadeDiscounts = u.coupons.map((c) => discounts.unmade(scope, c, customerId, u.start, kernel.ids.next('di', 24)))
    const fields = invoicing.invoiceFields(
      scope,
      {
        scope,
        customer: u.customer,
        currency: u.currency,
        sub: s,
        reason: 'upcoming',
        specs,
        period: { start: u.start, end: u.start },
        origin: NO_ORIGIN,
        timeline: u.timeline,
        unmade: {
          discounts: unmadeDiscounts,
          default_tax_rates: u.defaultTaxRates,
          collection_method: u.collectionMethod,
        },
      },
      id,
    )
    if (u.prorationDate !== undefined) {
      const parent = fields.parent as { subscription_details: Json }
      fields.parent = {
        ...parent,
        subscription_details: { ...parent.subscription_details, subscription_proration_date: u.prorationDate },
      }
    }
    return engine.build('Invoice', 'invoice', scope, {
      ...fields,
      id,
      object: 'invoice',
      created: sec(u.start),
      billing_reason: 'upcoming',
      ...(u.expandDiscounts === true ? { discounts: unmadeDiscounts } : {}),
    })
  }
}
