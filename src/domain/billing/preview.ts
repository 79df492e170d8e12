import { errorMessage } from '#catalogue/errors.js'
import { INVOICE_FINALIZATION_GRACE_MS } from '#catalogue/rules.js'
import type { Json } from '../engine/list.js'
import { NO_ORIGIN } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import { invalidRequest } from '../service-error.js'
import { type LineSpec, sec } from './billing-types.js'
import { boundary } from './calendar.js'
import type { BillingContext } from './context.js'
import type { Cycles } from './cycles.js'
import type { Invoicing } from './invoicing.js'
import { isMetered } from './lines.js'
import type { ItemChange, ProrationBehavior, Prorations } from './prorations.js'

/** Item changes a preview applies without making them. */
export interface PreviewChange {
  /** The subscription's items after the change (licensed quantities and prices as they would be). */
  readonly items: readonly Json[]
  readonly changes: readonly ItemChange[]
  readonly behavior: ProrationBehavior
  /** When the change is made (ms). */
  readonly at: number
  /** `subscription_details.proration_date` when given (unix seconds). */
  readonly date?: number
}

/** What a preview shows beyond the subscription's own billing. */
export interface PreviewExtras {
  /** Its pending items' lines as `invoice_items` change and add to them. */
  readonly items?: (pending: readonly LineSpec[]) => LineSpec[]
  /** `subscription_details.resume_at: now` (ms): the invoice a paused subscription's resumption makes then. */
  readonly resumeAt?: number
}

/** The upcoming invoice of a subscription (not stored): processed usage so far, next licensed period, pending items. */
export function createPreview(ctx: BillingContext, invoicing: Invoicing, cycles: Cycles, prorations: Prorations) {
  const { kernel, engine, r, lines, subs, key } = ctx
  /**
   * The upcoming invoice of a subscription (not stored): processed usage so far, next licensed
   * period, pending items. With `change`, as if its item changes were made at `change.at`: the next
   * period bills the changed items, and the prorations they would make are on it (unless `none`).
   */
  return function preview(scope: Scope, subId: string, change?: PreviewChange, extra: PreviewExtras = {}): Json {
    const s = subs.get(key(scope, subId))
    const sub = r.subscription().require(scope, subId)
    if (s === undefined || sub.status === 'canceled') {
      throw invalidRequest(errorMessage('invoice_upcoming_none', { customer: String(sub.customer) }), {
        code: 'invoice_upcoming_none',
        status: 404,
      })
    }
    const customer = r.customer().require(scope, s.customer)
    // A resumption bills as a period end now: usage so far, and a new period from now.
    const end = extra.resumeAt ?? s.periodEnd
    const wasTrial = extra.resumeAt === undefined && s.trialEnd !== null && end <= s.trialEnd
    const nextEnd =
      extra.resumeAt === undefined ? boundary(s.anchor, s.interval, s.count, s.n + 1) : boundary(end, s.interval, s.count, 1)
    const nextPeriod = { start: end, end: nextEnd }
    const usagePeriod = { start: s.periodStart, end }
    const specs: LineSpec[] = []
    for (const item of change?.items ?? cycles.itemsOf(scope, s.id)) {
      const price = item.price as Json
      if (isMetered(price)) {
        if (!wasTrial) specs.push(lines.itemLine(scope, s, item, usagePeriod, false))
      } else if (sub.cancel_at_period_end !== true) specs.push(lines.itemLine(scope, s, item, nextPeriod, false))
    }
    const pending = lines.pendingItems(scope, s.customer, String(sub.currency)).map((ii) => lines.pendingLine(scope, ii))
    specs.push(...(extra.items?.(pending) ?? pending))
    if (change !== undefined && change.behavior !== 'none') specs.push(...prorations.preview(scope, s, change.changes, change.at))
    const id = `upcoming_${kernel.ids.next('in', 24)}`
    const fields = invoicing.invoiceFields(
      scope,
      {
        scope,
        customer,
        currency: String(sub.currency),
        sub: s,
        reason: 'upcoming',
        specs,
        period: usagePeriod,
        origin: NO_ORIGIN,
        timeline: s.timeline,
      },
      id,
    )
    if (change?.date !== undefined) {
      const parent = fields.parent as { subscription_details: Json }
      fields.parent = {
        ...parent,
        subscription_details: { ...parent.subscription_details, subscription_proration_date: change.date },
      }
    }
    return engine.build('Invoice', 'invoice', scope, {
      ...fields,
      id,
      object: 'invoice',
      created: sec(end),
      automatically_finalizes_at: sec(end + INVOICE_FINALIZATION_GRACE_MS),
      next_payment_attempt: sec(end + INVOICE_FINALIZATION_GRACE_MS),
      billing_reason: 'upcoming',
    })
  }
}
