import type { UsageReporterFactory, WebhookReceiverFactory } from '../subjects.js'
import { makeUsageReporter } from './usage-reporter.js'
import { makeWebhookReceiver } from './webhook-receiver.js'

/** A client with one realistic mistake, and the mistake in words. */
export interface Variant<F> {
  readonly name: string
  readonly mistake: string
  readonly factory: F
  /** The policy the app promises, as options of its check (a grace it fails to give, say); none: the defaults. */
  readonly options?: Readonly<Record<string, unknown>>
  /** The rule the mistake breaks (the checker name its first violation carries). */
  readonly breaks?: string
}

/**
 * Usage reporters with one mistake each; the property suites must catch every one.
 *
 * @example
 * for (const v of buggyUsageReporters) expect((await checkUsageReporter(v.factory)).ok).toBe(false)
 */
export const buggyUsageReporters: readonly Variant<UsageReporterFactory>[] = [
  { name: 'no-identifiers', mistake: 'sends events without identifier', factory: makeUsageReporter({ noIdentifiers: true }) },
  {
    name: 'fresh-identifier-per-retry',
    mistake: 'makes a new identifier on every attempt',
    factory: makeUsageReporter({ freshIdentifierPerRetry: true }),
  },
  {
    name: 'no-session-refresh',
    mistake: 'keeps an expired session token',
    factory: makeUsageReporter({ noSessionRefresh: true }),
  },
  { name: 'ignores-429', mistake: 'retries a 429 at once', factory: makeUsageReporter({ ignores429: true }) },
  { name: 'no-lock-retry', mistake: 'gives up on a lock timeout', factory: makeUsageReporter({ noLockRetry: true }) },
  {
    name: 'no-batching',
    mistake: 'sends a large report in one request (over 100 events)',
    factory: makeUsageReporter({ noBatching: true }),
  },
  {
    name: 'drops-remainder',
    mistake: 'splits a large report into full batches of 100 and loses the rest',
    factory: makeUsageReporter({ dropsRemainder: true }),
  },
  {
    name: 'identifier-from-content',
    mistake: 'derives its identifier from customer, value and minute, so equal usage collides',
    factory: makeUsageReporter({ identifierFromContent: true }),
  },
  {
    name: 'sync-duplicate-retryable',
    mistake: 'on the sync endpoint, retries duplicate_meter_event as if it were transient',
    factory: makeUsageReporter({ duplicateRetryable: true }, 'sync'),
  },
  {
    name: 'sync-duplicate-as-lost',
    mistake: 'on the sync endpoint, takes duplicate_meter_event for a lost event and resends it under a new identifier',
    factory: makeUsageReporter({ duplicateAsLost: true }, 'sync'),
  },
]

/**
 * Webhook receivers with one mistake each.
 *
 * @example
 * for (const v of buggyWebhookReceivers) expect((await checkWebhookHandler(v.factory)).ok).toBe(false)
 */
export const buggyWebhookReceivers: readonly Variant<WebhookReceiverFactory>[] = [
  { name: 'no-dedup', mistake: 'processes duplicate deliveries again', factory: makeWebhookReceiver({ noDedup: true }) },
  { name: 'trusts-created', mistake: 'orders events by created', factory: makeWebhookReceiver({ trustsCreated: true }) },
  {
    name: 'reserialised-body',
    mistake: 'verifies a re-serialised body',
    factory: makeWebhookReceiver({ reserialisesBody: true }),
  },
  {
    name: 'ignores-tolerance',
    mistake: 'verifies with tolerance 0, so an old delivery replays',
    factory: makeWebhookReceiver({ ignoresTolerance: true }),
  },
  {
    name: 'slow-work-before-answer',
    mistake: 'does its slow work before answering',
    factory: makeWebhookReceiver({ slowWorkBeforeAnswer: true }),
  },
  { name: 'no-verification', mistake: 'never verifies signatures', factory: makeWebhookReceiver({ noVerification: true }) },
  {
    name: 'bounded-dedup-memory',
    mistake: 'remembers only the last 32 event ids, so a late redelivery is processed again',
    factory: makeWebhookReceiver({ dedupMemory: 32 }),
  },
  {
    name: 'dedup-ttl',
    mistake: 'forgets event ids after an hour (a TTL cache), so a resend days later is processed again',
    factory: makeWebhookReceiver({ dedupTtlMs: 3_600_000 }),
  },
  {
    name: 'effect-before-verification',
    mistake: 'performs its side effect before verifying the signature',
    factory: makeWebhookReceiver({ effectBeforeVerification: true }),
  },
  {
    name: 'dedup-in-memory',
    mistake: 'keeps processed event ids in memory only, so after a redeploy a duplicate is processed again',
    factory: makeWebhookReceiver({ dedupInMemory: true }),
  },
]
