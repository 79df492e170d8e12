import { DAY, HOUR, MINUTE } from '#kernel/time.js'
import type { LimitRow } from './limit-row.js'

// Meter event ingestion in live mode has limits of its own and does not count against the basic
// (global) rate; in sandbox it counts like any other call.
const METER_EVENTS = '*billing.meter_events.create'
const METER_STREAM = '*billing.meter_event_stream.create'

/**
 * The spec's "Limits" table as rows. Operations are matched by name globs so routes added later
 * (files, payouts, search, subscriptions) pick up their rows without code.
 *
 * @example
 * createSimulator({ limits: { rows: [{ id: 'global-rate.live', max: 200 }] } }) // raise one default
 */
export const DEFAULT_LIMITS: readonly LimitRow[] = [
  // Global rate per account.
  { id: 'global-rate.live', scope: 'account', kind: 'rate', mode: 'live', max: 100, except: [METER_EVENTS, METER_STREAM] },
  { id: 'global-rate.test', scope: 'account', kind: 'rate', mode: 'test', max: 25 },
  // Global concurrency (live mode only in the spec).
  { id: 'global-concurrency.live', scope: 'account', kind: 'concurrency', mode: 'live', max: 50 },
  // Every operation is one endpoint: 25/s unless a more specific endpoint row says otherwise.
  { id: 'endpoint-rate', scope: 'endpoint', kind: 'rate', max: 25 },
  { id: 'meter-events.live', scope: 'endpoint', kind: 'rate', mode: 'live', max: 1000, operations: [METER_EVENTS] },
  { id: 'meter-event-stream.live', scope: 'endpoint', kind: 'rate', mode: 'live', max: 10_000, operations: [METER_STREAM] },
  {
    id: 'accounts.create.live',
    scope: 'endpoint',
    kind: 'rate',
    mode: 'live',
    max: 30,
    operations: ['accounts.create', '*.accounts.create'],
  },
  {
    id: 'accounts.create.test',
    scope: 'endpoint',
    kind: 'rate',
    mode: 'test',
    max: 5,
    operations: ['accounts.create', '*.accounts.create'],
  },
  { id: 'payouts.create', scope: 'endpoint', kind: 'rate', max: 15, operations: ['payouts.create'] },
  // One concurrent synchronous meter event call per customer and meter is enforced by meter events
  // itself (after validation, with the meter's own customer mapping); the customer_meter scope
  // stays available for extra rows.
  // Resource rows: every endpoint of the resource counts together.
  { id: 'files.read', scope: 'resource', kind: 'rate', max: 20, operations: ['files.*', 'file_links.*'], methods: ['GET'] },
  {
    id: 'files.write',
    scope: 'resource',
    kind: 'rate',
    max: 20,
    operations: ['files.*', 'file_links.*'],
    methods: ['POST', 'DELETE'],
  },
  { id: 'search.read', scope: 'resource', kind: 'rate', max: 20, operations: ['*.search'], methods: ['GET'] },
  { id: 'payouts.concurrency', scope: 'resource', kind: 'concurrency', max: 30, operations: ['payouts.*'] },
  // Per object.
  {
    id: 'payment_intent.updates',
    scope: 'object',
    kind: 'rate',
    max: 1000,
    windowMs: HOUR,
    operations: ['payment_intents.*'],
    mutatesOnly: true,
  },
  {
    id: 'subscription.updates',
    scope: 'object',
    kind: 'rate',
    max: 200,
    windowMs: HOUR,
    operations: ['subscriptions.update', 'subscription_items.update'],
    mutatesOnly: true,
  },
  {
    id: 'subscription.invoices.minute',
    scope: 'object',
    kind: 'rate',
    max: 10,
    windowMs: MINUTE,
    operations: ['subscriptions.invoices.create', 'invoices.create_for_subscription'],
    mutatesOnly: true,
  },
  {
    id: 'subscription.invoices.day',
    scope: 'object',
    kind: 'rate',
    max: 20,
    windowMs: DAY,
    operations: ['subscriptions.invoices.create', 'invoices.create_for_subscription'],
    mutatesOnly: true,
  },
]

/**
 * Read allocations: GETs over a rolling window per transaction, with a floor; excluded product
 * families (data, reporting, tax) by operation glob.
 *
 * @example
 * createSimulator({ limits: { reads: { minimum: 100 } } })
 */
export interface ReadAllocationConfig {
  readonly perTransaction: number
  readonly minimum: number
  readonly windowMs: number
  readonly excluded: readonly string[]
}

/**
 * The spec's read allocation: 500 GETs per transaction over 30 days, at least 10,000.
 *
 * @example
 * DEFAULT_READ_ALLOCATION.minimum // 10_000
 */
export const DEFAULT_READ_ALLOCATION: ReadAllocationConfig = {
  perTransaction: 500,
  minimum: 10_000,
  windowMs: 30 * DAY,
  excluded: [
    'reporting.*',
    'sigma.*',
    'data.*',
    'tax.*',
    'tax_rates.*',
    'tax_codes.*',
    'tax_ids.*',
    'v2.data.*',
    'v2.reporting.*',
    'v2.tax.*',
  ],
}

/**
 * Default object lock wait: a request waits this long (virtual ms) for a held lock before `lock_timeout`.
 *
 * @example
 * createSimulator({ limits: { locks: { waitMs: DEFAULT_LOCK_WAIT_MS * 2 } } })
 */
export const DEFAULT_LOCK_WAIT_MS = 2000
