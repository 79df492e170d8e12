import Stripe from 'stripe'
import { afterAll, describe, expect, it } from 'vitest'
import { type ServedCli, startServeCli } from '../cli/serve-cli.js'
import { type OneSecretApp, startOneSecretApp } from './one-secret-app.js'

const running: { stop: () => Promise<unknown> }[] = []
afterAll(async () => {
  for (const r of running.reverse()) await r.stop()
})

/** Polls `check` every 25 ms for at most `ms` real milliseconds. */
async function within(ms: number, check: () => boolean): Promise<boolean> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (check()) return true
    await new Promise((r) => setTimeout(r, 25))
  }
  return check()
}

describe('serve delivers to v1 webhook endpoints an app registers itself', () => {
  it('signs each event with the secret of the create answer, once per endpoint, and stops when disabled', async () => {
    const app: OneSecretApp = await startOneSecretApp({ path: '/webhook' })
    running.push({ stop: () => app.close() })
    const served: ServedCli = await startServeCli(['--header-prefix', 'Stripe', '--admin-token', 'none'])
    running.push(served)
    const stripe = new Stripe(served.key, { host: '127.0.0.1', port: served.port, protocol: 'http' })
    const endpoint = await stripe.webhookEndpoints.create({ url: app.url, enabled_events: ['customer.created'] })
    expect(endpoint.secret).toMatch(/^whsec_/)
    app.useSecret(endpoint.secret ?? '')
    const first = await stripe.customers.create({ email: 'jenny@example.com' })
    expect(await within(10_000, () => app.verified.length >= 1)).toBe(true)
    expect(app.verified.map((e) => e.type)).toEqual(['customer.created'])
    expect(app.refused).toEqual([])
    await stripe.webhookEndpoints.update(endpoint.id, { disabled: true })
    await stripe.customers.create({ email: 'later@example.com' })
    // A second event would have arrived by now; only the first did.
    await new Promise((r) => setTimeout(r, 300))
    expect(app.verified).toHaveLength(1)
    const events = await stripe.events.list({ type: 'customer.created' })
    expect(events.data.map((e) => (e.data.object as { id: string }).id)).toContain(first.id)
  })
})
