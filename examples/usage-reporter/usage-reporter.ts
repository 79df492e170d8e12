import Stripe from 'stripe'

/** One usage record of the application: a customer used `value` units at `timestamp` (epoch ms). */
export interface Usage {
  customer: string
  value: number
  timestamp: number
}

/**
 * The application's usage reporter (the code under test): it streams usage as meter events on the
 * high-throughput stream, opening a meter event session lazily and opening a new one when the
 * 15-minute token expires.
 *
 * @example
 * const reporter = createUsageReporter({ apiKey, eventName: 'api_call', httpClient })
 * await reporter.report([{ customer: 'cus_1', value: 3, timestamp: Date.now() }])
 */
export function createUsageReporter(options: { apiKey: string; eventName: string; httpClient?: Stripe.HttpClient }) {
  const settings = { maxNetworkRetries: 2, ...(options.httpClient ? { httpClient: options.httpClient } : {}) }
  const stripe = new Stripe(options.apiKey, settings)
  let streamer: Stripe | undefined
  let sessions = 0

  async function openSession(): Promise<Stripe> {
    const session = await stripe.v2.billing.meterEventSession.create()
    sessions++
    return new Stripe(session.authentication_token, settings)
  }

  async function send(batch: Usage[]): Promise<void> {
    streamer ??= await openSession()
    await streamer.v2.billing.meterEventStream.create({
      events: batch.map((u) => ({
        event_name: options.eventName,
        timestamp: new Date(u.timestamp).toISOString(),
        payload: { stripe_customer_id: u.customer, value: String(u.value) },
      })),
    })
  }

  return {
    /** Reports usage in batches of at most 100 (the stream's limit). */
    async report(usage: Usage[]): Promise<void> {
      for (let i = 0; i < usage.length; i += 100) {
        const batch = usage.slice(i, i + 100)
        try {
          await send(batch)
        } catch (error) {
          if (!(error instanceof Stripe.errors.TemporarySessionExpiredError)) throw error
          streamer = await openSession()
          await send(batch)
        }
      }
    },
    get sessionsOpened() {
      return sessions
    },
  }
}
