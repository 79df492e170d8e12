import { createSimulator } from 'service-sim'
import {
  assertRun,
  checkUsageBilling,
  checkUsageReporter,
  checkWebhookReceiver,
  HarnessInputError,
  type Program,
  referenceUsageReporter,
  runCampaign,
  type UsageReporterFactory,
  type WebhookReceiverFactory,
  webhookStep,
} from 'service-sim/harness'
import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'

const RANK: Record<string, number> = { requires_payment_method: 0, processing: 1, succeeded: 2 }

/**
 * A webhook receiver as users write it with the official client: `Stripe-Signature` verified by
 * `stripe.webhooks.constructEvent` on the raw body at the virtual time, against each signing secret
 * (a roll keeps the old one valid a while), events deduplicated by id, and states only moving
 * forward. `dedup: false` is the classic bug.
 */
function officialClientReceiver(dedup = true): WebhookReceiverFactory {
  return (env) => {
    const stripe = new Stripe('sk_test_unused')
    // What an app keeps in its database survives a redeploy: processed ids and the payments table.
    const { store } = env
    return {
      async state() {
        const rows: Record<string, string> = {}
        for (const key of await store.keys('payment:')) rows[key.slice('payment:'.length)] = String(await store.get(key))
        return rows
      },
      async handler(req) {
        const raw = await req.text()
        const header = req.headers.get('stripe-signature') ?? ''
        let event: Stripe.Event | undefined
        for (const secret of env.secrets()) {
          try {
            event = stripe.webhooks.constructEvent(raw, header, secret, 300, undefined, env.clock.now)
            break
          } catch {
            // Try the next secret.
          }
        }
        if (event === undefined) return new Response('bad signature', { status: 400 })
        // Insert-if-absent: `undefined` before means this delivery is the first.
        const first = (await store.update(`event:${event.id}`, (at) => at ?? env.clock.now)) === undefined
        if (dedup && !first) return new Response(null, { status: 200 })
        const intent = event.data.object as Stripe.PaymentIntent
        env.effects.record(event.id, `${event.type}:${intent.id}`)
        await store.update(`payment:${intent.id}`, (held) =>
          held === undefined || (RANK[intent.status] ?? 0) > (RANK[String(held)] ?? 0) ? intent.status : held,
        )
        return new Response(null, { status: 200 })
      },
    }
  }
}

/**
 * A usage reporter on the official client's v1 meter events, retrying itself (the client's own
 * retries sleep in real time) when the answer says `Stripe-Should-Retry: true`, on 429 and 5xx and
 * when no answer came; it records every `Stripe-Should-Retry` value it saw.
 */
function officialClientReporter(saw: string[]): UsageReporterFactory {
  return (env) => {
    const stripe = new Stripe(env.secretKey, { httpClient: Stripe.createFetchHttpClient(env.fetch), maxNetworkRetries: 0 })
    const sleep = (ms: number) => new Promise<void>((resolve) => env.clock.setTimeout(() => resolve(), ms))
    const send = async (unit: { id: string; customer: string; value: number }) => {
      for (let attempt = 0; ; attempt++) {
        try {
          await stripe.billing.meterEvents.create({
            event_name: env.eventName,
            identifier: unit.id,
            payload: { [env.customerKey]: unit.customer, [env.valueKey]: String(unit.value) },
          })
          return
        } catch (error) {
          const e = error as InstanceType<typeof Stripe.errors.StripeError>
          const shouldRetry = e.headers?.['stripe-should-retry']
          if (shouldRetry !== undefined) saw.push(shouldRetry)
          const retryable =
            shouldRetry === 'true' ||
            (shouldRetry === undefined &&
              (e.type === 'StripeConnectionError' || e.statusCode === 429 || (e.statusCode ?? 0) >= 500))
          if (!retryable || attempt >= 8) throw error
          await sleep(1_000 * 2 ** attempt * (1 + env.random()))
        }
      }
    }
    return {
      async report(units) {
        for (const unit of units) await send(unit)
      },
    }
  }
}

describe('the harness with the official client (headerPrefix: Stripe)', () => {
  it('passes a Stripe-Signature receiver written with stripe.webhooks.constructEvent', async () => {
    const result = await checkWebhookReceiver(officialClientReceiver(), { headerPrefix: 'Stripe', numRuns: 15 })
    expect(result.violations ?? []).toEqual([])
    expect(result.ok).toBe(true)
  })

  it('catches the same receiver when it does not deduplicate, with a shrunk counterexample', async () => {
    const result = await checkWebhookReceiver(officialClientReceiver(false), { headerPrefix: 'Stripe', numRuns: 30 })
    expect(result.ok).toBe(false)
    expect(result.violations?.map((v) => v.checker)).toContain('receivers.effects_once')
    expect(result.counterexample?.steps.length).toBeLessThanOrEqual(3)
  })

  it("names the header and the secret when a Stripe-Signature receiver runs without headerPrefix: 'Stripe'", async () => {
    const result = await checkWebhookReceiver(officialClientReceiver(), { numRuns: 3 })
    expect(result.ok).toBe(false)
    const message = result.violations?.find((v) => v.checker === 'receivers.raw_body')?.message ?? ''
    expect(message).toContain("'Service-Signature' header")
    expect(message).toContain('signing secret (env.secrets()')
    expect(message).toContain("headerPrefix: 'Stripe'")
  })

  it('lets a reporter on the official client see its own Stripe-Should-Retry header', async () => {
    const saw: string[] = []
    const result = await checkUsageReporter(officialClientReporter(saw), {
      headerPrefix: 'Stripe',
      numRuns: 10,
      workload: { faultKinds: ['lock_timeout', 'server_error', 'rate_limit'], maxSteps: 6 },
    })
    expect(result.violations ?? []).toEqual([])
    expect(saw).toContain('true')
  })

  it('runs assertRun on a prepared simulator of the user (base), in its header names', async () => {
    const base = createSimulator({ seed: 'mine', headerPrefix: 'Stripe' })
    const program: Program = {
      seed: 3,
      steps: [
        { kind: 'emit', object: 0 },
        { kind: 'advance', ms: 60_000 },
      ],
      faults: [{ step: 1, fault: 'duplicate_delivery' }],
    }
    await assertRun(program, { webhook: officialClientReceiver(), base })
    await expect(assertRun(program, { webhook: officialClientReceiver(false), base })).rejects.toThrow(/receivers\.effects_once/)
  })

  it('takes simulator options (limits, apiVersion) through simOptions and apiVersion', async () => {
    const result = await checkWebhookReceiver(officialClientReceiver(), {
      headerPrefix: 'Stripe',
      apiVersion: '2025-03-31.basil',
      simOptions: { limits: false },
      numRuns: 3,
    })
    expect(result.ok).toBe(true)
  })

  it('runs a fault campaign in the Stripe header names', async () => {
    const report = await runCampaign({
      webhook: officialClientReceiver(),
      headerPrefix: 'Stripe',
      step: webhookStep(),
      runs: 3,
      maxSteps: 4,
      faults: { policy: { rates: { duplicate_delivery: 0.5 } } },
    })
    expect(report.violations).toBe(0)
  })

  it('runs checkUsageBilling in the Stripe header names', async () => {
    const result = await checkUsageBilling(referenceUsageReporter, { headerPrefix: 'Stripe', customers: 1, batchesPerDay: 1 })
    expect(result.violations).toEqual([])
    expect(result.acked).toBeGreaterThan(0)
  })

  it('refuses options that contradict the base simulator or that the harness owns', async () => {
    const base = createSimulator({ headerPrefix: 'Service' })
    await expect(checkWebhookReceiver(officialClientReceiver(), { base, headerPrefix: 'Stripe' })).rejects.toThrow(
      "checkWebhookReceiver: option 'headerPrefix' is 'Stripe' but the base simulator sends 'Service-*' headers",
    )
    await expect(checkUsageReporter(referenceUsageReporter, { simOptions: { seed: 3 } as never })).rejects.toThrow(
      "checkUsageReporter: option 'simOptions.seed' is set by the harness",
    )
    await expect(checkUsageBilling(referenceUsageReporter, { headerPrefix: 'Stripe-' })).rejects.toThrow(HarnessInputError)
  })
})
