import type { UsageReporterFactory, WebhookHandlerFactory } from '../subjects.js'
import { makeUsageReporter } from './usage-reporter.js'
import { makeWebhookReceiver } from './webhook-receiver.js'

/** A client with one realistic mistake, and the mistake in words. */
export interface Variant<F> {
  readonly name: string
  readonly mistake: string
  readonly factory: F
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
]

/**
 * Webhook receivers with one mistake each.
 *
 * @example
 * for (const v of buggyWebhookReceivers) expect((await checkWebhookHandler(v.factory)).ok).toBe(false)
 */
export const buggyWebhookReceivers: readonly Variant<WebhookHandlerFactory>[] = [
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
]
