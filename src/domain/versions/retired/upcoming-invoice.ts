import type { RetiredBehaviour } from './retired-call.js'

type Params = Record<string, unknown>

/**
 * The flat `subscription_*` params of the upcoming invoice, read as the `subscription_details` of
 * a preview (where basil moved them): `subscription_items` is `subscription_details[items]`.
 */
const SUBSCRIPTION_FIELDS = [
  'billing_cycle_anchor',
  'cancel_at',
  'cancel_at_period_end',
  'cancel_now',
  'default_tax_rates',
  'items',
  'proration_behavior',
  'proration_date',
  'resume_at',
  'start_date',
  'trial_end',
] as const

/** Params the preview does not take: pagination of the lines, and a flag without a current counterpart. */
const NOT_PREVIEW = new Set(['limit', 'starting_after', 'ending_before', 'subscription_trial_from_plan', 'expand'])

/** The flat anchor of then (a timestamp, `now` or `unchanged`) as the preview's `{ type, timestamp }`. */
function anchorParam(value: unknown): unknown {
  if (value === 'now' || value === 'unchanged') return { type: value }
  return typeof value === 'object' && value !== null ? value : { type: 'timestamp', timestamp: value }
}

/**
 * `GET /v1/invoices/upcoming` params as `invoices.createPreview` params: the flat subscription
 * params move under `subscription_details` (given ones there win), `coupon` becomes a discount.
 *
 * @example
 * previewParams({ customer: 'cus_1', subscription_items: [{ price: 'price_1' }] })
 * // { customer: 'cus_1', subscription_details: { items: [{ price: 'price_1' }] } }
 */
export function previewParams(params: Readonly<Params>): Params {
  const out: Params = {}
  const details: Params = {}
  for (const [key, value] of Object.entries(params)) {
    const field = key.startsWith('subscription_') ? key.slice('subscription_'.length) : undefined
    if (field === 'billing_cycle_anchor') details[field] = anchorParam(value)
    else if (field !== undefined && (SUBSCRIPTION_FIELDS as readonly string[]).includes(field)) details[field] = value
    else if (key === 'coupon') out.discounts = [{ coupon: value }]
    else if (!NOT_PREVIEW.has(key)) out[key] = value
  }
  if (Object.keys(details).length > 0) {
    const given = (params.subscription_details ?? {}) as Params
    out.subscription_details = { ...details, ...given }
  }
  return out
}

/**
 * `invoices.retrieveUpcoming`: the preview invoice, made by the same code as
 * `invoices.createPreview`.
 *
 * @example
 * RETRIEVE_UPCOMING(call) // { object: 'invoice', billing_reason: 'upcoming', ... }
 */
export const RETRIEVE_UPCOMING: RetiredBehaviour = (call) => call.run('invoices.createPreview', previewParams(call.params))

/**
 * `invoices.listUpcomingLines`: the preview's lines as a list, paged by `limit` (default 10) and
 * `starting_after`/`ending_before` line ids.
 *
 * @example
 * LIST_UPCOMING_LINES(call) // { object: 'list', data: [...], has_more: false, url: '/v1/invoices/upcoming/lines' }
 */
export const LIST_UPCOMING_LINES: RetiredBehaviour = (call) => {
  const invoice = call.run('invoices.createPreview', previewParams(call.params)) as { lines?: { data?: Params[] } }
  const all = invoice.lines?.data ?? []
  const limit = call.params.limit === undefined ? 10 : Number(call.params.limit)
  const after = all.findIndex((l) => l.id === call.params.starting_after)
  const before = all.findIndex((l) => l.id === call.params.ending_before)
  let data: Params[]
  let more: boolean
  if (before >= 0) {
    data = all.slice(Math.max(0, before - limit), before)
    more = before - limit > 0
  } else {
    const from = after + 1
    data = all.slice(from, from + limit)
    more = from + limit < all.length
  }
  return { object: 'list', data, has_more: more, url: '/v1/invoices/upcoming/lines' }
}
