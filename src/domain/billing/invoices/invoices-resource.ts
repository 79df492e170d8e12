import { errorMessage } from '#catalogue/errors.js'
import { DAY } from '#kernel/time.js'
import type { OperationCall, ResourceDeclaration } from '../../engine/declaration.js'
import type { Engine } from '../../engine/engine.js'
import { fieldEquals, type Json, pageV1, passesRange } from '../../engine/list.js'
import { subList } from '../../engine/sub-list.js'
import type { Scope } from '../../mode.js'
import type { ResourcePorts } from '../../resource-ports.js'
import { invalidRequest, tableError } from '../../service-error.js'
import type { PreviewChange, PreviewExtras } from '../billing.js'
import { type Redemption, redeem } from '../catalog/promotion-redemption.js'
import { paymentsList } from '../invoice-payment-records.js'
import {
  entriesOf,
  invalid,
  itemsAfter,
  planItems,
  prorationTiming,
  redemptionsOf,
} from '../subscriptions/subscription-params.js'
import { attachPayment } from './invoice-attach-payment.js'
import { invoiceLineBehaviours } from './invoice-lines.js'
import { previewNewSubscription } from './invoice-preview-new.js'
import { previewItems } from './preview-invoice-items.js'

function unexpected(invoice: Json, action: string) {
  return invalidRequest(errorMessage('invoice_unexpected_state', { status: String(invoice.status), action }), {
    code: 'invoice_unexpected_state',
  })
}

/**
 * `subscription_details` of a preview: the item changes (and their prorations at
 * `proration_date`, or now) applied to the subscription as if made, checked like an update.
 */
function previewChange(engine: Engine, ports: ResourcePorts, call: OperationCall, subId: string): PreviewChange | undefined {
  const details = call.params.subscription_details as Record<string, unknown> | undefined
  if (details === undefined || details === null) return undefined
  const sub = engine.resource('subscription').require(call.scope, subId)
  const state = ports.billing.subState(call.scope, subId)
  const current = ports.billing.itemsOf(call.scope, subId)
  const planned = planItems(engine, call, sub, current, entriesOf(details.items), 'subscription_details[items]')
  const timing = prorationTiming(
    state,
    details.proration_behavior,
    details.proration_date,
    'subscription_details[proration_date]',
  )
  const { items, changes } = itemsAfter(current, planned, (i) => `si_upcoming_${i}`)
  return { items, changes, behavior: timing.behavior, at: timing.at, ...(timing.date !== undefined ? { date: timing.date } : {}) }
}

/**
 * What a preview of an existing subscription shows beyond its billing: `invoice_items`, and with
 * `subscription_details.resume_at: now` (a paused subscription only) the resumption's invoice.
 */
function previewExtras(engine: Engine, ports: ResourcePorts, call: OperationCall, subId: string): PreviewExtras {
  const sub = engine.resource('subscription').require(call.scope, subId)
  const now = ports.billing.subState(call.scope, subId)?.timeline.now() ?? engine.now() * 1000
  const items = previewItems(engine, call, String(sub.currency), now)
  const resume = (call.params.subscription_details as { resume_at?: unknown } | undefined)?.resume_at
  if (resume !== undefined && sub.status !== 'paused') {
    throw invalid(
      'subscription_details[resume_at]',
      `can only be set for a paused subscription; ${subId} is ${String(sub.status)}`,
    )
  }
  return { ...(items === undefined ? {} : { items }), ...(resume === 'now' ? { resumeAt: now } : {}) }
}

/**
 * A manual invoice's collection: `send_invoice` needs `due_date` or `days_until_due` (counted from
 * creation); `charge_automatically` refuses both.
 */
function manualCollection(params: Readonly<Record<string, unknown>>, now: number): Record<string, unknown> {
  const { collection_method: method, days_until_due: days, due_date: due } = params
  if (method !== 'send_invoice') {
    if (days !== undefined || due !== undefined) {
      const param = days !== undefined ? 'days_until_due' : 'due_date'
      throw invalidRequest(
        errorMessage('parameter_invalid', { param, detail: "can only be set when collection_method is 'send_invoice'" }),
        { code: 'parameter_invalid', param },
      )
    }
    return {}
  }
  if (days === undefined && due === undefined) {
    throw invalidRequest(errorMessage('parameter_missing', { param: 'days_until_due' }), {
      code: 'parameter_missing',
      param: 'days_until_due',
    })
  }
  const dueDate = due !== undefined ? Number(due) : Math.floor((now + Number(days) * DAY) / 1000)
  return { collection_method: 'send_invoice', due_date: dueDate }
}

/**
 * `confirmation_secret` (answered when expanded): the client secret of the payment intent the
 * invoice waits on (or was paid by), which the customer's browser confirms; null without one.
 */
function confirmationSecret(invoice: Json, { engine, scope }: { engine: Engine; scope: Scope }): unknown {
  const payments = (invoice.payments as { data?: Json[] } | undefined)?.data ?? []
  const payment = payments.find((p) => p.status === 'open') ?? payments.find((p) => p.status === 'paid')
  const pi = (payment?.payment as { payment_intent?: unknown } | undefined)?.payment_intent
  const intent = typeof pi === 'string' ? engine.resource('payment_intent').get(scope, pi) : undefined
  return intent === undefined ? null : { client_secret: intent.client_secret, type: 'payment_intent' }
}

function invoiceOf(engine: Engine, call: OperationCall): Json {
  return engine.resource('invoice').require(call.scope, call.path.id ?? '')
}

/** The subscription an invoice bills (where the current API version puts it), or null. */
function subscriptionOf(invoice: Json): unknown {
  const parent = invoice.parent as { subscription_details?: { subscription?: unknown } } | null | undefined
  return parent?.subscription_details?.subscription ?? null
}

/** The subscription a preview or manual invoice names must be the customer's when both are given. */
function checkSubscriptionOf(engine: Engine, call: OperationCall, customer: unknown, subId: string): void {
  const sub = engine.resource('subscription').requireParam(call.scope, subId, 'subscription')
  if (typeof customer === 'string' && sub.customer !== customer) {
    throw invalidRequest(
      errorMessage('parameter_invalid', { param: 'subscription', detail: `${subId} does not belong to customer ${customer}` }),
      { code: 'parameter_invalid', param: 'subscription' },
    )
  }
}

/**
 * Invoices: subscription invoices are made by billing (src/domain/billing/); these behaviours
 * serve the preview, lines, finalization, payment and voiding. Manual invoices (`invoices.create`)
 * stay drafts with the customer's pending invoice items when asked (`pending_invoice_items_behavior=include`).
 */
export const invoices: ResourceDeclaration<ResourcePorts> = {
  type: 'Invoice',
  object: 'invoice',
  idPrefix: 'in',
  defaults: ({ id, created }) => ({
    auto_advance: false,
    billing_reason: 'manual',
    collection_method: 'charge_automatically',
    currency: 'usd',
    lines: subList(`/v1/invoices/${id}/lines`),
    period_end: created,
    period_start: created,
    status: 'draft',
    status_transitions: { finalized_at: null, marked_uncollectible_at: null, paid_at: null, voided_at: null },
  }),
  // Includable: the payments list is stored once the invoice has one, answered only when asked.
  withheld: ['payments'],
  includes: {
    confirmation_secret: confirmationSecret,
    payments: (invoice) => invoice.payments ?? paymentsList(String(invoice.id), []),
  },
  behaviours: {
    ...invoiceLineBehaviours,
    'invoices.attachPayment': attachPayment,
    'invoices.create'(call, next, { engine, ports }) {
      const { customer, subscription, pending_invoice_items_behavior: pending, ...params } = call.params
      if (typeof customer !== 'string') {
        throw invalidRequest(errorMessage('parameter_missing', { param: 'customer' }), {
          code: 'parameter_missing',
          param: 'customer',
        })
      }
      const c = engine.resource('customer').requireParam(call.scope, customer, 'customer')
      if (typeof subscription === 'string') {
        checkSubscriptionOf(engine, call, customer, subscription)
        ports.billing.checkInvoiceLimit(call.scope, subscription)
      }
      const currency = typeof params.currency === 'string' ? params.currency.toLowerCase() : String(c.currency ?? 'usd')
      const timeline = ports.billing.timelineOfCustomer(call.scope, c)
      const sub = typeof subscription === 'string' ? (ports.billing.subState(call.scope, subscription) ?? null) : null
      const specs =
        pending === 'include'
          ? ports.billing.pendingItems(call.scope, customer, currency).map((ii) => ports.billing.pendingLine(call.scope, ii))
          : []
      const now = timeline.now()
      const collection = manualCollection(params, now)
      const redemptions =
        params.discounts === undefined
          ? []
          : redemptionsOf(engine, call, params.discounts, { customer, currency, now: Math.floor(now / 1000) })
      void next
      const invoice = ports.billing.createInvoice({
        scope: call.scope,
        customer: c,
        currency,
        sub,
        reason: 'manual',
        specs,
        period: { start: now, end: now },
        origin: call.origin,
        timeline,
      })
      const extra = { ...params, currency } as Record<string, unknown>
      delete extra.expand
      if (redemptions.length > 0) applyInvoiceDiscounts(engine, ports, call, invoice, redemptions, now)
      return engine.resource('invoice').put(call.scope, invoice.id, {
        auto_advance: params.auto_advance === true,
        ...collection,
        ...(typeof params.description === 'string' ? { description: params.description } : {}),
        ...(typeof params.metadata === 'object' && params.metadata !== null ? { metadata: params.metadata } : {}),
      })
    },
    'invoices.createPreview'(call, _next, { engine, ports }) {
      const { customer, subscription } = call.params
      let subId = typeof subscription === 'string' ? subscription : undefined
      if (subId !== undefined) checkSubscriptionOf(engine, call, customer, subId)
      if (subId === undefined) {
        if (typeof customer !== 'string') {
          throw invalidRequest(errorMessage('parameter_missing', { param: 'customer' }), {
            code: 'parameter_missing',
            param: 'customer',
          })
        }
        engine.resource('customer').requireParam(call.scope, customer, 'customer')
        // Items without a subscription preview creating one ("you will preview creating a
        // subscription with those items"), whatever subscriptions the customer has.
        const details = call.params.subscription_details as { items?: unknown } | undefined
        if (details?.items !== undefined) return previewNewSubscription(engine, ports, call, customer)
        subId = engine
          .resource('subscription')
          .list(call.scope)
          .find((s) => s.customer === customer && s.status !== 'canceled')?.id
        if (subId === undefined) {
          throw invalidRequest(errorMessage('invoice_upcoming_none', { customer }), {
            code: 'invoice_upcoming_none',
            status: 404,
          })
        }
      }
      const change = previewChange(engine, ports, call, subId)
      return ports.billing.preview(call.scope, subId, change, previewExtras(engine, ports, call, subId))
    },
    'invoices.list'(call, next, { engine }) {
      // `subscription` is not a field of the invoice in this API version (it sits under `parent`),
      // so the engine's equality filters cannot apply it.
      const { subscription, ...params } = call.params
      if (subscription === undefined) return next()
      const items = engine
        .resource('invoice')
        .list(call.scope)
        .filter(
          (o) =>
            subscriptionOf(o) === subscription &&
            (params.created === undefined || passesRange(o.created, params.created, 'created')) &&
            ['customer', 'status', 'collection_method'].every((f) => params[f] === undefined || fieldEquals(o[f], params[f])),
        )
      return pageV1(items, params, '/v1/invoices', 'invoice')
    },
    'invoices.listLineItems'(call, _next, { engine }) {
      const invoice = invoiceOf(engine, call)
      const lines = (invoice.lines as { data: Json[] }).data
      return pageV1(lines, call.params, `/v1/invoices/${invoice.id}/lines`, 'line_item')
    },
    'invoices.finalizeInvoice'(call, _next, { engine, ports }) {
      const invoice = invoiceOf(engine, call)
      if (invoice.status !== 'draft') throw unexpected(invoice, 'finalized')
      const st = ports.billing.invoiceState(call.scope, invoice.id)
      const automatic = call.params.auto_advance !== false && (invoice.auto_advance === true || st?.subscription != null)
      return ports.billing.finalizeAndPay(
        call.scope,
        invoice.id,
        call.origin,
        automatic && invoice.collection_method === 'charge_automatically',
      )
    },
    'invoices.pay'(call, _next, { engine, ports }) {
      let invoice = invoiceOf(engine, call)
      if (invoice.status !== 'draft' && invoice.status !== 'open' && invoice.status !== 'uncollectible')
        throw unexpected(invoice, 'paid')
      // The payment method is checked before a draft is finalized: a refusal changes nothing.
      // "The PaymentMethod must be the ID of a PaymentMethod belonging to the customer".
      const pm = call.params.payment_method
      if (typeof pm === 'string') {
        ports.paymentMethods.check(call.scope, pm, 'payment_method')
        const found = ports.paymentMethods.get(call.scope, pm)
        if (found !== undefined && found.customer !== invoice.customer) {
          throw tableError('payment_method_not_attached', { id: pm }, { param: 'payment_method' })
        }
      }
      if (invoice.status === 'draft') invoice = ports.billing.finalize(call.scope, invoice.id, call.origin)
      if (invoice.status !== 'open' && invoice.status !== 'uncollectible') throw unexpected(invoice, 'paid')
      if (call.params.paid_out_of_band === true) return ports.billing.markPaid(call.scope, invoice.id, null, call.origin)
      return ports.billing.attemptPayment(call.scope, invoice.id, call.origin, {
        automatic: false,
        raise: true,
        ...(typeof pm === 'string' ? { paymentMethod: pm } : {}),
      })
    },
    'invoices.sendInvoice'(call, _next, { engine, ports }) {
      const invoice = invoiceOf(engine, call)
      if (invoice.collection_method !== 'send_invoice') {
        throw invalidRequest(errorMessage('invoice_not_send_invoice', {}), { code: 'invoice_not_send_invoice' })
      }
      // A draft is finalized (which sends it); an open or uncollectible one is sent again.
      if (invoice.status === 'draft') return ports.billing.finalize(call.scope, invoice.id, call.origin)
      if (invoice.status !== 'open' && invoice.status !== 'uncollectible') throw unexpected(invoice, 'sent')
      return ports.billing.resendInvoice(call.scope, invoice.id, call.origin)
    },
    'invoices.markUncollectible'(call, _next, { engine, ports }) {
      const invoice = invoiceOf(engine, call)
      if (invoice.status !== 'open') throw unexpected(invoice, 'marked uncollectible')
      return ports.billing.markUncollectible(call.scope, invoice.id, call.origin)
    },
    'invoices.del'(call, next, { engine }) {
      // "Permanently deletes a one-off invoice draft ... once an invoice has been finalized or if an
      // invoice is for a subscription, it must be voided" (billing would still finalize it).
      const invoice = invoiceOf(engine, call)
      if (invoice.status !== 'draft') throw unexpected(invoice, 'deleted')
      if (subscriptionOf(invoice) !== null) {
        throw tableError('invoice_unexpected_state', { status: 'for a subscription', action: 'deleted (void it once finalized)' })
      }
      return next()
    },
    'invoices.voidInvoice'(call, _next, { engine, ports }) {
      const invoice = invoiceOf(engine, call)
      if (invoice.status !== 'open' && invoice.status !== 'uncollectible') throw unexpected(invoice, 'voided')
      return ports.billing.voidInvoice(call.scope, invoice.id, call.origin)
    },
  },
}

/**
 * A manual invoice's own `discounts`: a discount object per coupon or promotion code, naming the
 * invoice, its amounts counted again with them, and each redemption counted.
 */
function applyInvoiceDiscounts(
  engine: Engine,
  ports: ResourcePorts,
  call: OperationCall,
  invoice: Json,
  redemptions: readonly Redemption[],
  now: number,
): void {
  const customer = String(invoice.customer)
  const ids = redemptions.map(
    (r) => ports.billing.discounts.createOnInvoice(call.scope, r, customer, String(invoice.id), now, call.origin).id,
  )
  const withIds = engine.resource('invoice').put(call.scope, String(invoice.id), { discounts: ids })
  const data = ((withIds.lines as { data?: Json[] } | undefined)?.data ?? []) as Json[]
  engine.resource('invoice').put(call.scope, String(invoice.id), ports.billing.draftLines(call.scope, withIds, data))
  redeem(engine, call.scope, redemptions)
}
