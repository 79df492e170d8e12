import {
  ACCOUNT_CREATION_RATE,
  ENDPOINT_RATE,
  FILES_RATE,
  GLOBAL_CONCURRENCY_LIVE,
  GLOBAL_RATE,
  METER_EVENT_STREAM_RATE_LIVE,
  METER_EVENTS_RATE_LIVE,
  PAYMENT_INTENT_UPDATES_PER_HOUR,
  PAYOUTS,
  READ_WINDOW_MS,
  READS_MINIMUM,
  READS_PER_TRANSACTION,
  SEARCH_READ_RATE,
  SUBSCRIPTION_LIMITS,
} from '#catalogue/rules.js'
import { DAY, HOUR, MINUTE } from '#kernel/time.js'
import type { LimitRow } from './limit-row.js'

// Meter event ingestion in live mode has limits of its own and does not count against the basic
// (global) rate; in sandbox it counts like any other call.
const METER_EVENTS = '*billing.meterEvents.create'
const METER_STREAM = 'v2.billing.meterEventStream.create'

/**
 * The spec's "Limits" table as rows. Operations are matched by name globs so routes added later
 * (files, payouts, search, subscriptions) pick up their rows without code.
 *
 * @example
 * createSimulator({ limits: { rows: [{ id: 'global-rate.live', max: 200 }] } }) // raise one default
 */
export const DEFAULT_LIMITS: readonly LimitRow[] = [
  // Global rate per account.
  {
    id: 'global-rate.live',
    scope: 'account',
    kind: 'rate',
    mode: 'live',
    max: GLOBAL_RATE.live,
    except: [METER_EVENTS, METER_STREAM],
  },
  { id: 'global-rate.test', scope: 'account', kind: 'rate', mode: 'test', max: GLOBAL_RATE.test },
  // Global concurrency (live mode only in the spec).
  { id: 'global-concurrency.live', scope: 'account', kind: 'concurrency', mode: 'live', max: GLOBAL_CONCURRENCY_LIVE },
  // Every operation is one endpoint: 25/s unless a more specific endpoint row says otherwise.
  { id: 'endpoint-rate', scope: 'endpoint', kind: 'rate', max: ENDPOINT_RATE },
  {
    id: 'meter-events.live',
    scope: 'endpoint',
    kind: 'rate',
    mode: 'live',
    max: METER_EVENTS_RATE_LIVE,
    operations: [METER_EVENTS],
  },
  {
    id: 'meter-event-stream.live',
    scope: 'endpoint',
    kind: 'rate',
    mode: 'live',
    max: METER_EVENT_STREAM_RATE_LIVE,
    operations: [METER_STREAM],
  },
  {
    id: 'accounts.create.live',
    scope: 'endpoint',
    kind: 'rate',
    mode: 'live',
    max: ACCOUNT_CREATION_RATE.live,
    operations: ['accounts.create', '*.accounts.create'],
  },
  {
    id: 'accounts.create.test',
    scope: 'endpoint',
    kind: 'rate',
    mode: 'test',
    max: ACCOUNT_CREATION_RATE.test,
    operations: ['accounts.create', '*.accounts.create'],
  },
  { id: 'payouts.create', scope: 'endpoint', kind: 'rate', max: PAYOUTS.createRate, operations: ['payouts.create'] },
  // One concurrent synchronous meter event call per customer and meter is enforced by meter events
  // itself (after validation, with the meter's own customer mapping); the customer_meter scope
  // stays available for extra rows.
  // Resource rows: every endpoint of the resource counts together.
  {
    id: 'files.read',
    scope: 'resource',
    kind: 'rate',
    max: FILES_RATE.read,
    operations: ['files.*', 'file_links.*'],
    methods: ['GET'],
  },
  {
    id: 'files.write',
    scope: 'resource',
    kind: 'rate',
    max: FILES_RATE.write,
    operations: ['files.*', 'file_links.*'],
    methods: ['POST', 'DELETE'],
  },
  { id: 'search.read', scope: 'resource', kind: 'rate', max: SEARCH_READ_RATE, operations: ['*.search'], methods: ['GET'] },
  { id: 'payouts.concurrency', scope: 'resource', kind: 'concurrency', max: PAYOUTS.concurrency, operations: ['payouts.*'] },
  // Per object.
  {
    id: 'payment_intent.updates',
    scope: 'object',
    kind: 'rate',
    max: PAYMENT_INTENT_UPDATES_PER_HOUR,
    windowMs: HOUR,
    operations: ['payment_intents.*'],
    mutatesOnly: true,
  },
  // Per subscription, counted by billing (quantity changes from any operation; new invoices from
  // requests and from billing cycles alike); `operations: []` keeps the request gate off them.
  {
    id: 'subscription.updates',
    scope: 'subscription',
    kind: 'rate',
    max: SUBSCRIPTION_LIMITS.quantityUpdatesPerHour,
    windowMs: HOUR,
    operations: [],
  },
  {
    id: 'subscription.invoices.minute',
    scope: 'subscription',
    kind: 'rate',
    max: SUBSCRIPTION_LIMITS.invoicesPerMinute,
    windowMs: MINUTE,
    operations: [],
  },
  {
    id: 'subscription.invoices.day',
    scope: 'subscription',
    kind: 'rate',
    max: SUBSCRIPTION_LIMITS.invoicesPerDay,
    windowMs: DAY,
    operations: [],
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
  perTransaction: READS_PER_TRANSACTION,
  minimum: READS_MINIMUM,
  windowMs: READ_WINDOW_MS,
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
