import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Stripe from 'stripe'
import { afterAll, describe, expect, it } from 'vitest'
import { type ServedCli, startServeCli } from '../cli/serve-cli.js'
import { type OneSecretApp, startOneSecretApp } from './one-secret-app.js'

const running: { stop: () => Promise<unknown> }[] = []
afterAll(async () => {
  for (const r of running.reverse()) await r.stop()
})

/** Polls `check` every 25 ms for at most `ms` real milliseconds. */
async function within(ms: number, check: () => Promise<boolean> | boolean): Promise<boolean> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await check()) return true
    await new Promise((r) => setTimeout(r, 25))
  }
  return check()
}

interface EventRow {
  id: string
  type: string
  account: string
  kind: 'snapshot' | 'thin'
}

const envOf = (text: string) =>
  Object.fromEntries(
    text
      .split('\n')
      .map((l) => /^([A-Z_]+)=(.*)$/.exec(l))
      .filter((m) => m !== null)
      .map((m) => [m[1], m[2]]),
  )

describe('serve forwarding as the provider CLI does it: one destination and one secret per URL', () => {
  it('--forward-to, --forward-thin-to and --forward-connect-to: each app verifies every event it subscribed to with its one secret', async () => {
    const apps: OneSecretApp[] = [
      await startOneSecretApp({ path: '/webhook' }),
      await startOneSecretApp({ path: '/thin', thin: true }),
      await startOneSecretApp({ path: '/connect' }),
    ]
    for (const app of apps) running.push({ stop: () => app.close() })
    const [snapshotApp, thinApp, connectApp] = apps as [OneSecretApp, OneSecretApp, OneSecretApp]
    const dir = mkdtempSync(join(tmpdir(), 'serve-forward-'))
    const envFile = join(dir, '.env')
    // An app's own variables stay; the keys serve owns are replaced.
    writeFileSync(envFile, '# the sample app\nSTATIC_DIR=../client\nSTRIPE_SECRET_KEY=sk_test_stale\n')
    const served: ServedCli = await startServeCli([
      '--header-prefix',
      'Stripe',
      '--admin-token',
      'none',
      '--forward-to',
      snapshotApp.url,
      '--forward-thin-to',
      thinApp.url,
      '--forward-connect-to',
      connectApp.url,
      '--env-file',
      envFile,
    ])
    running.push(served)
    const out = served.out()
    const secretOf = Object.fromEntries(
      [...out.matchAll(/\((--forward-[a-z-]+)\): destination \S+\n {2}webhook signing secret (whsec_\S+)/g)].map((m) => [
        m[1],
        m[2],
      ]),
    )
    const secrets = ['--forward-to', '--forward-thin-to', '--forward-connect-to'].map((o) => secretOf[o] as string)
    expect(new Set(secrets.filter((s) => s?.startsWith('whsec_'))).size).toBe(3)
    const publishable = /publishable key (pk_test_\S+)/.exec(out)?.[1]
    expect(publishable).toBeDefined()
    const env = envOf(readFileSync(envFile, 'utf8'))
    expect(env).toEqual({
      STATIC_DIR: '../client',
      STRIPE_SECRET_KEY: served.key,
      STRIPE_PUBLISHABLE_KEY: publishable,
      STRIPE_WEBHOOK_SECRET: secrets[0],
      // What 'service-sim trigger' reads: serve's address and admin token (none here).
      SERVICE_SIM_URL: `http://127.0.0.1:${served.port}`,
      SERVICE_SIM_ADMIN_TOKEN: 'none',
    })
    // The snapshot app reads its one secret from the .env file, as the samples do.
    snapshotApp.useSecret(env.STRIPE_WEBHOOK_SECRET as string)
    thinApp.useSecret(secrets[1] as string)
    connectApp.useSecret(secrets[2] as string)

    const base = `http://127.0.0.1:${served.port}`
    const stripe = new Stripe(env.STRIPE_SECRET_KEY as string, { host: '127.0.0.1', port: served.port, protocol: 'http' })
    const customer = await stripe.customers.create({ email: 'jenny@example.com' })
    await stripe.customers.update(customer.id, { name: 'Jenny' })
    const pi = await stripe.paymentIntents.create({
      amount: 2000,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
    })
    expect(pi.status).toBe('succeeded')
    const connected = await stripe.accounts.create({ type: 'express', country: 'US' })
    await stripe.customers.create({ email: 'c@example.com' }, { stripeAccount: connected.id })
    const admin = (path: string, body?: unknown) =>
      fetch(`${base}/__sim${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
    expect((await admin('/events/trigger', { type: 'v1.billing.meter.error_report_triggered' })).status).toBe(200)

    const events = ((await (await admin('/events')).json()) as { data: EventRow[] }).data
    const platform = events.filter((e) => e.account !== connected.id && e.kind === 'snapshot').map((e) => e.id)
    const connect = events.filter((e) => e.account === connected.id && e.kind === 'snapshot').map((e) => e.id)
    const thin = events.filter((e) => e.kind === 'thin').map((e) => e.id)
    expect(platform.length).toBeGreaterThan(3)
    expect(connect.length).toBeGreaterThan(0)
    expect(thin).toHaveLength(1)
    const ids = (app: OneSecretApp) => app.verified.map((e) => e.id).sort()
    expect(
      await within(
        10_000,
        () => ids(snapshotApp).length >= platform.length && ids(connectApp).length >= connect.length && ids(thinApp).length >= 1,
      ),
      JSON.stringify({
        snapshot: ids(snapshotApp),
        connect: ids(connectApp),
        thin: ids(thinApp),
        refused: apps.map((a) => a.refused),
      }),
    ).toBe(true)
    expect(ids(snapshotApp)).toEqual([...platform].sort())
    expect(ids(connectApp)).toEqual([...connect].sort())
    expect(ids(thinApp)).toEqual([...thin].sort())
    for (const app of apps) expect(app.refused).toEqual([])
    expect(connectApp.verified.every((e) => e.account === connected.id)).toBe(true)
  })

  it("without --forward-connect-to, connected accounts' events go to --forward-to, as the provider CLI forwards them", async () => {
    const app = await startOneSecretApp()
    running.push({ stop: () => app.close() })
    const served = await startServeCli(['--header-prefix', 'Stripe', '--forward-to', app.url, '--events', 'customer.created'])
    running.push(served)
    const secret = /webhook signing secret (whsec_\S+)/.exec(served.out())?.[1] as string
    app.useSecret(secret)
    const stripe = new Stripe(served.key, { host: '127.0.0.1', port: served.port, protocol: 'http' })
    const connected = await stripe.accounts.create({ type: 'express', country: 'US' })
    await stripe.customers.create({ email: 'own@example.com' })
    await stripe.customers.create({ email: 'theirs@example.com' }, { stripeAccount: connected.id })
    expect(await within(10_000, () => app.verified.length >= 2)).toBe(true)
    expect(app.verified.map((e) => [e.type, e.account ?? null]).sort()).toEqual(
      [
        ['customer.created', null],
        ['customer.created', connected.id],
      ].sort(),
    )
    expect(app.refused).toEqual([])
  })
})
