import { METER_EVENT_STREAM_MAX_EVENTS } from '#catalogue/index.js'
import { headerNames } from '#kernel/index.js'
import { sleep, type Usage, type UsageReporter, type UsageReporterEnv, type UsageReporterFactory } from '../subjects.js'

/** The mistakes a usage reporter can make; the correct reporter makes none. */
export interface UsageReporterFlaws {
  /** Sends events without `identifier`, so a retried batch counts twice. */
  noIdentifiers?: boolean
  /** Makes a new identifier for every attempt (a uuid at send time), defeating deduplication. */
  freshIdentifierPerRetry?: boolean
  /** Keeps using an expired session token instead of opening a new session. */
  noSessionRefresh?: boolean
  /** Retries a rate-limited request at once, without backing off. */
  ignores429?: boolean
  /** Treats a 429 without a rate-limit reason (a lock timeout) as fatal. */
  noLockRetry?: boolean
  /** Sends a whole report in one request, however large (the stream takes at most 100 events). */
  noBatching?: boolean
  /** Splits a report into full batches of 100 and loses the remainder of a report larger than 100. */
  dropsRemainder?: boolean
  /** Derives the identifier from what it sends (customer, value, minute), so equal usage collides within 24 hours. */
  identifierFromContent?: boolean
  /** Sync endpoint: retries `duplicate_meter_event` as if it were transient (it never succeeds). */
  duplicateRetryable?: boolean
  /** Sync endpoint: takes `duplicate_meter_event` for a lost event and sends it again under a new identifier. */
  duplicateAsLost?: boolean
}

/**
 * Attempts the reference reporter makes per request before it gives up. Larger than the most
 * refusals a generated program can arm on one request (`DEFAULT_MAX_FAULTS` entries of at most
 * `MAX_FAULT_COUNT` each), so a correct client never fails a program the harness generates.
 */
export const REFERENCE_MAX_ATTEMPTS = 20
const MAX_ATTEMPTS = REFERENCE_MAX_ATTEMPTS
const BATCH = METER_EVENT_STREAM_MAX_EVENTS

class GiveUp extends Error {}

/**
 * A usage reporter on the meter event stream: batches of at most 100 events with identifiers
 * derived from the usage id (stable across retries), a session opened on demand and reopened when
 * the service says it expired, and exponential backoff with jitter on the injected clock for 429s
 * (rate limits and lock timeouts), 409s, 5xx and network failures. `flaws` switches one mistake on.
 *
 * @example
 * const reporter = referenceUsageReporter(env)
 * await reporter.report([{ id: 'u1', customer: 'cus_u1', value: 3 }])
 */
export function makeUsageReporter(flaws: UsageReporterFlaws = {}, endpoint: 'stream' | 'sync' = 'stream'): UsageReporterFactory {
  return (env) => (endpoint === 'sync' ? new SyncReporter(env, flaws) : new StreamReporter(env, flaws))
}

const identifierOf = (env: UsageReporterEnv, flaws: UsageReporterFlaws, u: Usage, suffix = ''): string =>
  flaws.identifierFromContent
    ? `${u.customer}-${u.value}-${Math.floor(env.clock.now / 60_000)}${suffix}`
    : `usage-${u.id}${suffix}`

class StreamReporter implements UsageReporter {
  private token: string | undefined
  private expiresAt = 0
  private sends = 0
  constructor(
    private readonly env: UsageReporterEnv,
    private readonly flaws: UsageReporterFlaws,
  ) {}

  async report(units: readonly Usage[]): Promise<void> {
    if (this.flaws.noBatching) return this.send(units)
    if (this.flaws.dropsRemainder) {
      const full = Math.max(1, Math.floor(units.length / BATCH))
      for (let i = 0; i < full; i++) await this.send(units.slice(i * BATCH, (i + 1) * BATCH))
      return
    }
    for (let i = 0; i < units.length; i += BATCH) await this.send(units.slice(i, i + BATCH))
  }

  private backoff(attempt: number): Promise<void> {
    // "Equal jitter": at least half the exponential delay, so a retry never follows a 429 at once.
    const cap = Math.min(30_000, 500 * 2 ** attempt)
    return sleep(this.env.clock, Math.round(cap / 2 + (this.env.random() * cap) / 2))
  }

  private events(units: readonly Usage[], attempt: number): unknown[] {
    const { env, flaws } = this
    const timestamp = new Date(env.clock.now).toISOString()
    // Literals without spreads or computed keys (the run sends thousands): the members, and so the
    // JSON, in the same order as ever.
    return units.map((u) => {
      const payload: Record<string, string> = {}
      payload[env.customerKey] = u.customer
      payload[env.valueKey] = String(u.value)
      if (flaws.noIdentifiers) return { event_name: env.eventName, timestamp, payload }
      const identifier = flaws.freshIdentifierPerRetry ? `usage-${u.id}-${this.sends}-${attempt}` : identifierOf(env, flaws, u)
      return { event_name: env.eventName, identifier, timestamp, payload }
    })
  }

  /** The session token while it has more than a minute left (or is kept regardless, by the flaw). */
  private current(): string | undefined {
    const token = this.token
    return token !== undefined && (this.flaws.noSessionRefresh || this.env.clock.now < this.expiresAt - 60_000)
      ? token
      : undefined
  }

  private async session(): Promise<string> {
    const { env } = this
    const current = this.current()
    if (current !== undefined) return current
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      let res: Response
      try {
        res = await env.fetch(`${env.baseUrl}/v2/billing/meter_event_session`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${env.secretKey}`, 'Content-Type': 'application/json' },
          body: '{}',
        })
      } catch {
        await this.backoff(attempt)
        continue
      }
      if (res.ok) {
        const body = (await res.json()) as { authentication_token: string; expires_at: string }
        this.token = body.authentication_token
        this.expiresAt = Date.parse(body.expires_at)
        return this.token
      }
      await res.text()
      if (!this.retryable(res)) throw new GiveUp(`cannot open a meter event session: ${res.status}`)
      if (!(res.status === 429 && this.flaws.ignores429)) await this.backoff(attempt)
    }
    throw new GiveUp('cannot open a meter event session')
  }

  private retryable(res: Response): boolean {
    if (res.status === 429) {
      const reason = res.headers.get(headerNames(this.env.prefix).rateLimitedReason)
      return reason !== null || !this.flaws.noLockRetry
    }
    return res.status === 409 || res.status >= 500
  }

  private async send(units: readonly Usage[]): Promise<void> {
    const { env } = this
    this.sends++
    // A retry sends the same text: it is written once per batch (per attempt when identifiers change).
    let body = JSON.stringify({ events: this.events(units, 0) })
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (attempt > 0 && this.flaws.freshIdentifierPerRetry) body = JSON.stringify({ events: this.events(units, attempt) })
      // A token still valid is used as it is: no promise per send.
      const token = this.current() ?? (await this.session())
      let res: Response
      try {
        res = await env.fetch(`${env.baseUrl}/v2/billing/meter_event_stream`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body,
        })
      } catch {
        // Indeterminate: the batch may have been taken. Resending it is safe because of the identifiers.
        await this.backoff(attempt)
        continue
      }
      if (res.ok) {
        await res.text()
        return
      }
      const text = await res.text()
      if (res.status === 401 && text.includes('billing_meter_event_session_expired')) {
        if (!this.flaws.noSessionRefresh) this.token = undefined
        else await this.backoff(attempt)
        continue
      }
      if (!this.retryable(res)) throw new GiveUp(`usage refused: ${res.status} ${text}`)
      if (!(res.status === 429 && this.flaws.ignores429)) await this.backoff(attempt)
    }
    throw new GiveUp('usage not acknowledged after retries')
  }
}

/**
 * A usage reporter on the synchronous endpoint (`POST /v2/billing/meter_events`), one event per
 * request in order, with an identifier derived from the usage id: retries 429s, 409s, 5xx and
 * network failures with backoff, and takes `duplicate_meter_event` on a retry for what it means:
 * an earlier attempt was recorded (the answer was lost), so the unit is acknowledged.
 */
class SyncReporter implements UsageReporter {
  constructor(
    private readonly env: UsageReporterEnv,
    private readonly flaws: UsageReporterFlaws,
  ) {}

  async report(units: readonly Usage[]): Promise<void> {
    for (const u of units) await this.send(u)
  }

  private backoff(attempt: number): Promise<void> {
    const cap = Math.min(30_000, 500 * 2 ** attempt)
    return sleep(this.env.clock, Math.round(cap / 2 + (this.env.random() * cap) / 2))
  }

  private async send(u: Usage): Promise<void> {
    const { env, flaws } = this
    let identifier = identifierOf(env, flaws, u)
    let lost = 0
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      let res: Response
      try {
        res = await env.fetch(`${env.baseUrl}/v2/billing/meter_events`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${env.secretKey}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({
            event_name: env.eventName,
            ...(flaws.noIdentifiers ? {} : { identifier }),
            timestamp: new Date(env.clock.now).toISOString(),
            payload: { [env.customerKey]: u.customer, [env.valueKey]: String(u.value) },
          }),
        })
      } catch {
        await this.backoff(attempt)
        continue
      }
      const text = await res.text()
      if (res.ok) return
      if (res.status === 400 && text.includes('duplicate_meter_event')) {
        if (flaws.duplicateAsLost) {
          identifier = identifierOf(env, flaws, u, `-resent${++lost}`)
          continue
        }
        if (flaws.duplicateRetryable) {
          await this.backoff(attempt)
          continue
        }
        // Already recorded by an attempt whose answer was lost.
        return
      }
      const retryable =
        res.status === 429
          ? res.headers.get(headerNames(env.prefix).rateLimitedReason) !== null || !flaws.noLockRetry
          : res.status === 409 || res.status >= 500
      if (!retryable) throw new GiveUp(`usage refused: ${res.status} ${text}`)
      if (!(res.status === 429 && flaws.ignores429)) await this.backoff(attempt)
    }
    throw new GiveUp('usage not acknowledged after retries')
  }
}

/**
 * The correct usage reporter on the synchronous endpoint.
 *
 * @example
 * await checkUsageReporter(referenceSyncUsageReporter, { numRuns: 50 }) // { ok: true, ... }
 */
export const referenceSyncUsageReporter: UsageReporterFactory = makeUsageReporter({}, 'sync')

/**
 * The correct usage reporter.
 *
 * @example
 * await checkUsageReporter(referenceUsageReporter, { numRuns: 50 }) // { ok: true, ... }
 */
export const referenceUsageReporter: UsageReporterFactory = makeUsageReporter()
