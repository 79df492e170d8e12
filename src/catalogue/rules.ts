/**
 * Every number and name of the spec's rules, once, each quoted from the service contract (`docs/service.md` summarises it). Domain
 * code imports these (`#catalogue/rules.js`) instead of spelling a limit itself.
 *
 * Durations are virtual milliseconds; rates are requests per second unless the name says otherwise.
 *
 * @example
 * import { METER_EVENT_MAX_AGE_DAYS, SESSION_VALIDITY_MS } from '#catalogue/rules.js'
 */
import { DAY, HOUR, MINUTE } from '#kernel/time.js'

// Meter events ---------------------------------------------------------------------------------

/** "Must be within the past 35 calendar days and at most 5 minutes in the future." (MeterEvent.timestamp) */
export const METER_EVENT_MAX_AGE_DAYS = 35
/** "Must be within the past 35 calendar days and at most 5 minutes in the future." (MeterEvent.timestamp) */
export const METER_EVENT_MAX_LEAD_MS = 5 * MINUTE
/** "Uniqueness is enforced within a rolling 24-hour period." (MeterEvent.identifier) */
export const METER_EVENT_IDENTIFIER_WINDOW_MS = 24 * HOUR
/** "Body: `events`, an array of objects, required, at most 100 per request." (meter event stream) */
export const METER_EVENT_STREAM_MAX_EVENTS = 100
/** "Must hold the field named by the meter's `customer_mapping.event_payload_key` (default `service_customer_id`)" */
export const DEFAULT_CUSTOMER_PAYLOAD_KEY = 'service_customer_id'
/** "...and the field named by `value_settings.event_payload_key` (default `value`)." */
export const DEFAULT_VALUE_PAYLOAD_KEY = 'value'

// Sessions -------------------------------------------------------------------------------------

/** "Expiry time; 15 minutes of validity." (MeterEventSession.expires_at) */
export const SESSION_VALIDITY_MS = 15 * MINUTE

// Event destinations and signatures ------------------------------------------------------------

/** "At most 16 webhook endpoints can be registered." */
export const MAX_WEBHOOK_ENDPOINTS = 16
/** "When a secret is rolled, the old secret can stay active for up to 24 hours" */
export const SECRET_ROLL_MAX_OVERLAP_MS = 24 * HOUR
/** "The default tolerance in the official libraries is 5 minutes; tolerance `0` disables the recency check." (seconds) */
export const SIGNATURE_TOLERANCE_SECONDS = 300
/** "The signing secret (a string starting with `whsec_`)" */
export const SIGNING_SECRET_PREFIX = 'whsec_'
/** "`events_from`: `@self`, `@accounts`, `@organization_members`, `@organization_members/@accounts`" */
export const EVENTS_FROM = ['@self', '@accounts', '@organization_members', '@organization_members/@accounts'] as const
/** "`event_payload`: `snapshot` or `thin`." */
export const EVENT_PAYLOADS = ['snapshot', 'thin'] as const

// Delivery -------------------------------------------------------------------------------------

/** "Live mode: delivery is retried for up to three days with exponential backoff." */
export const LIVE_RETRY_WINDOW_MS = 3 * DAY
/** "Sandbox: three retries over a few hours." */
export const SANDBOX_RETRIES = 3
/** "Manual resend: via the dashboard up to 15 days after event creation" */
export const RESEND_WINDOW_DASHBOARD_MS = 15 * DAY
/** "via the command-line tool up to 30 days after creation." */
export const RESEND_WINDOW_CLI_MS = 30 * DAY
/** "Listed delivery statuses: `Delivered`, `Pending`, `Failed`" */
export const DELIVERY_STATUSES = ['Delivered', 'Pending', 'Failed'] as const

// Rate, concurrency and read limits ------------------------------------------------------------

/** "Global API rate, per account: Live mode 100 requests per second; sandbox 25 per second." */
export const GLOBAL_RATE = { live: 100, test: 25 } as const
/** "Single endpoint (unless stated): 25 requests per second." */
export const ENDPOINT_RATE = 25
/** "Global concurrency (live mode): 50 in-progress requests by default" */
export const GLOBAL_CONCURRENCY_LIVE = 50
/** "Payment intents: 1,000 update requests per PaymentIntent object per hour." */
export const PAYMENT_INTENT_UPDATES_PER_HOUR = 1000
/** "Subscriptions: 10 new invoices per subscription per minute; 20 per subscription per day; 200 quantity updates per subscription per hour." */
export const SUBSCRIPTION_LIMITS = { invoicesPerMinute: 10, invoicesPerDay: 20, quantityUpdatesPerHour: 200 } as const
/** "Files: 20 read and 20 write requests per second." */
export const FILES_RATE = { read: 20, write: 20 } as const
/** "Payouts: 15 create requests per second; 30 concurrent requests per business." */
export const PAYOUTS = { createRate: 15, concurrency: 30 } as const
/** "Connect accounts (v1 and v2): Creation: live 30 accounts per second; sandbox 5 per second." */
export const ACCOUNT_CREATION_RATE = { live: 30, test: 5 } as const
/** "Search: 20 read requests per second." */
export const SEARCH_READ_RATE = 20
/** "Meter events (synchronous): 1,000 events per second in live mode; one concurrent call per customer per meter." */
export const METER_EVENTS_RATE_LIVE = 1000
/** "one concurrent call per customer per meter." */
export const METER_EVENTS_CONCURRENCY_PER_CUSTOMER_METER = 1
/** "Meter event stream: 10,000 requests per second in live mode; at most 100 events per request" */
export const METER_EVENT_STREAM_RATE_LIVE = 10_000
/** "GET requests of an account must average no more than 500 per transaction" */
export const READS_PER_TRANSACTION = 500
/** "Every account has a minimum of 10,000 read requests per month." */
export const READS_MINIMUM = 10_000
/** "computed over a rolling 30-day window." */
export const READ_WINDOW_MS = 30 * DAY
/** "header `Service-Rate-Limited-Reason` with one of: global-rate, endpoint-rate, global-concurrency, endpoint-concurrency, resource-specific" */
export const RATE_LIMITED_REASONS = [
  'global-rate',
  'endpoint-rate',
  'global-concurrency',
  'endpoint-concurrency',
  'resource-specific',
] as const

// Versioning and identifiers -------------------------------------------------------------------

/** "The value has the shape `<date>.<release_name>`, and preview releases use the release name `preview`." */
export const PREVIEW_RELEASE = 'preview'
/** "A connected account is identified by an id with prefix `acct_`." */
export const ACCOUNT_ID_PREFIX = 'acct_'
/** "The customer field carries a customer id (prefix `cus_`)." */
export const CUSTOMER_ID_PREFIX = 'cus_'

// Provider rules the spec does not state ----------------------------------------------------------

/**
 * The provider's documented metadata limits (not in the spec): "up to 50 keys, with key names up
 * to 40 characters long and values up to 500 characters long".
 */
export const METADATA_LIMITS = { keys: 50, keyLength: 40, valueLength: 500 } as const

// Billing (not in the spec: the provider's documented behaviour, see the docs/decisions/billing-*.md files) --

/**
 * A subscription invoice with automatic collection stays `draft` this long before it is finalized
 * and paid. The provider: "Stripe waits approximately 1 hour before finalizing the invoice and
 * attempting payment" (subscription renewal invoices; docs.stripe.com/billing/invoices/subscription).
 */
export const INVOICE_FINALIZATION_GRACE_MS = HOUR
/**
 * Automatic retries of a failed invoice payment, in days after the previous attempt: the
 * provider's custom retry schedule as its dashboard offers it ("Retry up to 3 times: 3, 5 and 7
 * days after the previous attempt"); Smart Retries' machine-learned timing is not modelled.
 */
export const INVOICE_PAYMENT_RETRY_DAYS = [3, 5, 7] as const
/**
 * A subscription whose first invoice is not paid stays `incomplete` this long, then becomes
 * `incomplete_expired` and its invoice is voided: "If the first invoice is not paid within 23 hours,
 * the subscription transitions to incomplete_expired" (docs.stripe.com/billing/subscriptions/overview).
 */
export const SUBSCRIPTION_INCOMPLETE_EXPIRY_MS = 23 * HOUR
/** `items` on subscriptions.create/update (the pinned client: "A list of up to 20 subscription items"). */
export const SUBSCRIPTION_MAX_ITEMS = 20
/**
 * `trial_end` on a subscription (the pinned client: "Can be at most two years from
 * `billing_cycle_anchor`"), in days.
 */
export const SUBSCRIPTION_MAX_TRIAL_DAYS = 730
/**
 * Longest test clock `name`: the provider's API schema declares `maxLength: 300` on it (the pinned
 * client's types only say "The name for this test clock").
 */
export const TEST_CLOCK_NAME_MAX_LENGTH = 300
/** "Test clocks are deleted 30 days after creation" (`deletes_after`). */
export const TEST_CLOCK_LIFETIME_MS = 30 * DAY
/**
 * A recurring price's longest billing period, per interval (the pinned client on
 * `recurring.interval_count`: "Maximum of three years interval allowed (3 years, 36 months, or 156
 * weeks)"; days follow the same three years).
 */
export const PRICE_MAX_INTERVAL_COUNT = { day: 1095, week: 156, month: 36, year: 3 } as const
/** `unit_amount_decimal`: "a decimal value in cents ... with at most 12 decimal places". */
export const PRICE_DECIMAL_MAX_PLACES = 12
/**
 * How far one advance of a test clock may go (the pinned client on `advance`'s `frozen_time`):
 * "Cannot be more than two intervals in the future from the shortest subscription in this test
 * clock. If there are no subscriptions in this test clock, it cannot be more than two years in the
 * future."
 */
export const TEST_CLOCK_ADVANCE_MAX = { intervals: 2, yearsWithoutSubscriptions: 2 } as const
/**
 * The latest unix time (s) a test clock may be frozen at: 9999-12-31T23:59:59Z, the last instant
 * an ISO 8601 date with four year digits can name (billing dates every object from it).
 */
export const TEST_CLOCK_MAX_FROZEN_TIME = 253_402_300_799
/**
 * Event types the spec names ("Event types named") that the official client does not declare: the
 * service sends them, so a destination, a forwarding flag or a fault may name them.
 */
export const SPEC_ONLY_EVENT_TYPES = ['charge.created', 'checkout_sessions.completed'] as const
/**
 * How long before a trial ends the provider sends `customer.subscription.trial_will_end` (its
 * event reference: "Occurs three days before a subscription's trial period is scheduled to end,
 * or when a trial is ended immediately (using trial_end=now)").
 */
export const TRIAL_WILL_END_LEAD_MS = 3 * DAY
