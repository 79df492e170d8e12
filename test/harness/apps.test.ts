import { AsyncLocalStorage } from 'node:async_hooks'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import { Hono } from 'hono'
import { signatureHeader, verifySignature } from 'service-sim'
import {
  checkDunning,
  checkFulfilment,
  checkSubscriptionMirror,
  checkWebhookReceiver,
  type DunningEnv,
  type FlowClientEnv,
  type FlowProgram,
  type FulfilmentEnv,
  fulfilmentPayments,
  HarnessInputError,
  mirrorSubject,
  mountApp,
  resignDelivery,
  runFlow,
  serveRuns,
  toAppFetch,
  type WebhookReceiverEnv,
} from 'service-sim/harness'
import Stripe from 'stripe'
import { describe, expect, it, vi } from 'vitest'
import { expressMirrorApp, SubscriptionTable } from '../../examples/apps/express-mirror.js'
import { fastifyMirrorApp } from '../../examples/apps/fastify-mirror.js'
import { honoShop } from '../../examples/apps/hono-shop.js'
import { dunningListener } from '../../examples/apps/node-dunning.js'

// Flow runs with every kind of adversity, some over real sockets: minutes on a loaded machine.
vi.setConfig({ testTimeout: 240_000 })

/**
 * The app's database outlives its process: one table per run (the run's `env.store` names it), the
 * same across the run's redeploys, as a real database is.
 */
const databases = new WeakMap<object, SubscriptionTable>()
function databaseOf(env: FlowClientEnv): SubscriptionTable {
  const db = databases.get(env.store) ?? new SubscriptionTable()
  databases.set(env.store, db)
  return db
}

/** The Express mirror mounted in process, built per deploy from its env, its state read from its database. */
function expressMirror(ignoresDeleted = false) {
  return mountApp((env: FlowClientEnv) => {
    const stripe = new Stripe(env.secretKey, { httpClient: Stripe.createFetchHttpClient(env.fetch), maxNetworkRetries: 0 })
    const db = databaseOf(env)
    return {
      app: expressMirrorApp({ stripe, secrets: env.secrets, db, now: () => env.clock.now, ignoresDeleted }),
      subscriptions: () => db.all(),
      hasAccess: (customer: string) => db.hasAccess(customer),
    }
  })
}

describe('an Express app mounted in process', () => {
  it('passes a correct subscription mirror, its state read through its database', async () => {
    const result = await checkSubscriptionMirror(expressMirror(), { headerPrefix: 'Stripe', numRuns: 15 })
    expect(result.violations ?? []).toEqual([])
    expect(result.ok).toBe(true)
  })

  it('catches the mirror that ignores customer.subscription.deleted, naming the access it kept', async () => {
    const result = await checkSubscriptionMirror(expressMirror(true), { headerPrefix: 'Stripe', numRuns: 40 })
    expect(result.ok).toBe(false)
    expect(result.violations?.map((v) => v.checker)).toContain('mirror.access_granted')
  })
})

describe('a Fastify app mounted in process', () => {
  const mirror = (ignoresDeleted: boolean) =>
    mountApp((env: FlowClientEnv) => {
      const stripe = new Stripe(env.secretKey, { httpClient: Stripe.createFetchHttpClient(env.fetch), maxNetworkRetries: 0 })
      const db = databaseOf(env)
      return {
        app: fastifyMirrorApp({ stripe, secrets: env.secrets, db, now: () => env.clock.now, ignoresDeleted }),
        subscriptions: () => db.all(),
        hasAccess: (customer: string) => db.hasAccess(customer),
      }
    })

  it('passes the mirror on Fastify, booted and routed in memory', async () => {
    const result = await checkSubscriptionMirror(mirror(false), { headerPrefix: 'Stripe', numRuns: 10 })
    expect(result.violations ?? []).toEqual([])
    expect(result.ok).toBe(true)
  })

  it('catches the Fastify mirror that ignores customer.subscription.deleted', async () => {
    const result = await checkSubscriptionMirror(mirror(true), { headerPrefix: 'Stripe', numRuns: 40 })
    expect(result.violations?.map((v) => v.checker)).toContain('mirror.access_granted')
  })
})

describe('mountApp under checkWebhookReceiver', () => {
  const RANK: Record<string, number> = { requires_payment_method: 0, processing: 1, succeeded: 2 }

  it('passes a Hono receiver that deduplicates through its store and keeps states moving forward', async () => {
    const receiver = mountApp((env: WebhookReceiverEnv) => {
      const app = new Hono().post('/webhook', async (c) => {
        const raw = await c.req.text()
        try {
          verifySignature(raw, c.req.header('stripe-signature') ?? null, env.secrets(), { now: env.clock.now })
        } catch {
          return c.text('bad signature', 400)
        }
        const event = JSON.parse(raw) as { id: string; type: string; data: { object: { id: string; status: string } } }
        if ((await env.store.update(`event:${event.id}`, (p) => p ?? true)) !== undefined) return c.text('duplicate')
        const intent = event.data.object
        env.effects.record(event.id, `${event.type}:${intent.id}`)
        await env.store.update(`payment:${intent.id}`, (held) =>
          held === undefined || (RANK[intent.status] ?? 0) > (RANK[String(held)] ?? 0) ? intent.status : held,
        )
        return c.text('ok')
      })
      const state = async () => {
        const rows: Record<string, string> = {}
        for (const key of await env.store.keys('payment:')) rows[key.slice('payment:'.length)] = String(await env.store.get(key))
        return rows
      }
      return { app, state }
    })
    const result = await checkWebhookReceiver(receiver, { headerPrefix: 'Stripe', numRuns: 10 })
    expect(result.violations ?? []).toEqual([])
    expect(result.ok).toBe(true)
  })
})

describe('an app whose state is read through an async callback', () => {
  it('awaits the readers: a mirror whose table answers empty is caught as not converged', async () => {
    const forgetful = mountApp((env: FlowClientEnv) => {
      const stripe = new Stripe(env.secretKey, { httpClient: Stripe.createFetchHttpClient(env.fetch), maxNetworkRetries: 0 })
      const db = new SubscriptionTable()
      return {
        app: expressMirrorApp({ stripe, secrets: env.secrets, db, now: () => env.clock.now }),
        subscriptions: async () => ({}),
        hasAccess: (customer: string) => db.hasAccess(customer),
      }
    })
    const result = await checkSubscriptionMirror(forgetful, { headerPrefix: 'Stripe', numRuns: 5 })
    expect(result.ok).toBe(false)
    expect(result.violations?.map((v) => v.checker)).toContain('mirror.converged')
  })
})

describe('a Hono app mounted in process', () => {
  const shop = (dedupe: boolean) => mountApp((env: FulfilmentEnv) => ({ app: honoShop(env, { dedupe }) }))
  // The ready-made payments include the delayed bank debit, whose unpaid `completed` event the
  // app's paid-event handler may overlap: a correct app must pass with them.
  it('passes a fulfilment app whose webhook and success page are Hono routes', async () => {
    const result = await checkFulfilment(shop(true), { headerPrefix: 'Stripe', numRuns: 15 })
    expect(result.violations ?? []).toEqual([])
    expect(result.ok).toBe(true)
  })

  // Cards only, so each counterexample is a card paid once and shipped twice.
  const cards = { payments: fulfilmentPayments.filter((p) => p.paymentMethod.startsWith('pm_card')) }

  it('catches the same app fulfilling without deduplicating, from its orders', async () => {
    const result = await checkFulfilment(shop(false), { headerPrefix: 'Stripe', numRuns: 30, ...cards })
    expect(result.ok).toBe(false)
    expect(result.violations?.map((v) => v.checker)).toContain('fulfilment.once')
  })
})

describe('a Node request listener mounted in process', () => {
  const dunning = (dedupe: boolean) => mountApp((env: DunningEnv) => ({ app: dunningListener(env, { dedupe }) }))

  it('passes a dunning listener served in memory, without a socket', async () => {
    const result = await checkDunning(dunning(true), { headerPrefix: 'Stripe', numRuns: 15 })
    expect(result.violations ?? []).toEqual([])
    expect(result.ok).toBe(true)
  })

  it('catches the listener that notifies on every delivery of a failure', async () => {
    const result = await checkDunning(dunning(false), { headerPrefix: 'Stripe', numRuns: 40 })
    expect(result.ok).toBe(false)
    expect(result.violations?.map((v) => v.checker)).toContain('dunning.notice_once')
  })
})

/** Starts the Express mirror as a real server on an ephemeral port, as its own process would run it. */
async function startMirrorServer(api: { apiUrl: string; secretKey: string; webhookSecret: string }, ignoresDeleted = false) {
  const { hostname, port } = new URL(api.apiUrl)
  const stripe = new Stripe(api.secretKey, { host: hostname, port: Number(port), protocol: 'http', maxNetworkRetries: 0 })
  const app = expressMirrorApp({
    stripe,
    secrets: () => [api.webhookSecret],
    db: new SubscriptionTable(),
    ignoresDeleted,
    testRoutes: true,
  })
  const webhookAnswers: number[] = []
  const server: Server = createServer((req, res) => {
    if (req.url === '/webhook') res.on('finish', () => webhookAnswers.push(res.statusCode))
    app(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url, webhookAnswers, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

/** The harness's view of the running mirror: reset and state over its test routes. */
function attach(api: Awaited<ReturnType<typeof serveRuns>>, url: string) {
  const get = async (path: string) => (await fetch(url + path)).json()
  return api.app({
    url,
    reset: async () => void (await fetch(`${url}/test/reset`, { method: 'POST' })),
    state: () => ({
      subscriptions: () => get('/test/subscriptions'),
      hasAccess: async (customer: string) => (await get(`/test/access/${customer}`)) === true,
    }),
  })
}

describe('the shapes an app comes in', () => {
  it('refuses a value that is no app, naming the shapes it takes', () => {
    expect(() => toAppFetch(42 as never)).toThrow(HarnessInputError)
    expect(() => toAppFetch(42 as never)).toThrow(/Node request listener/)
  })

  it('serves a Node listener, a Request handler and a fetch app alike', async () => {
    const shapes = [
      (_req: unknown, res: { end(s: string): void }) => res.end('listener'),
      (_request: Request) => new Response('handler'),
      { fetch: () => new Response('fetch app') },
    ]
    const texts = await Promise.all(
      shapes.map(async (app) => (await toAppFetch(app as never)(new Request('http://app.test/'))).text()),
    )
    expect(texts).toEqual(['listener', 'handler', 'fetch app'])
  })
})

describe('a Node listener served in memory', () => {
  it('leaves the framework intact for real sockets in the same process', async () => {
    const app = express().get('/', (_req, res) => void res.send('hello'))
    const inMemory = await toAppFetch(app)(new Request('http://app.test/'))
    expect(await inMemory.text()).toBe('hello')
    const server = createServer(express().get('/', (_req, res) => void res.send('real')))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const real = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
      expect(await real.text()).toBe('real')
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })

  it('hands the raw body, method, query and headers over, and the status, headers and body back', async () => {
    const call = toAppFetch({
      listener: (req, res) => {
        const chunks: Buffer[] = []
        req.on('data', (c: Buffer) => chunks.push(c))
        req.on('end', () =>
          res
            .writeHead(201, { 'x-seen': `${req.method} ${req.url} ${req.headers['stripe-signature']}` })
            .end(Buffer.concat(chunks)),
        )
      },
    })
    const res = await call(
      new Request('http://app.test/webhook?x=1', {
        method: 'POST',
        headers: { 'Stripe-Signature': 't=1,v1=ab' },
        body: 'raw body',
      }),
    )
    expect(res.status).toBe(201)
    expect(res.headers.get('x-seen')).toBe('POST /webhook?x=1 t=1,v1=ab')
    expect(await res.text()).toBe('raw body')
  })
})

describe('a delivery re-signed for an app outside the process', () => {
  const body = '{"id":"evt_1"}'
  const header = signatureHeader(body, ['whsec_run'], 1_767_225_600)
  const how = { runSecrets: ['whsec_run'], appSecret: 'whsec_app', shiftSeconds: 1_000 }

  it("verifies under the app's secret at the app's time, keeping its age", () => {
    const moved = resignDelivery(header, body, how)
    expect(() => verifySignature(body, moved, ['whsec_app'], { now: (1_767_225_600 + 1_000) * 1000 })).not.toThrow()
    expect(() => verifySignature(body, moved, ['whsec_app'], { now: (1_767_225_600 + 1_000 + 600) * 1000 })).toThrow()
  })

  it('leaves a forged or tampered signature false', () => {
    const forged = signatureHeader(body, ['whsec_attacker'], 1_767_225_600)
    expect(() => verifySignature(body, resignDelivery(forged, body, how), ['whsec_app'], { tolerance: 0 })).toThrow()
    const tampered = resignDelivery(header, '{"id":"evt_2"}', how)
    expect(() => verifySignature('{"id":"evt_2"}', tampered, ['whsec_app'], { tolerance: 0 })).toThrow()
  })
})

describe('an app already running on a port, with serveRuns', () => {
  it('refuses to run under a property that is not a flow property', async () => {
    const api = await serveRuns()
    try {
      const factory = api.app({ url: 'http://127.0.0.1:9' })
      await expect(checkWebhookReceiver(factory as never, { numRuns: 1 })).rejects.toThrow(/flow properties/)
    } finally {
      await api.close()
    }
  })

  it("reads the app's state only after its reset, in a run that delivers nothing", async () => {
    const api = await serveRuns()
    let resetDone = false
    const readsBeforeReset: string[] = []
    const factory = api.app({
      url: 'http://127.0.0.1:9',
      // A reset that takes a while (a database truncate): a few hundred turns of the event loop.
      reset: async () => {
        for (let i = 0; i < 200; i++) await new Promise((resolve) => setImmediate(resolve))
        resetDone = true
      },
      state: () => ({
        subscriptions: () => {
          if (!resetDone) readsBeforeReset.push('subscriptions')
          return {}
        },
        hasAccess: (customer: string) => {
          if (!resetDone) readsBeforeReset.push(`hasAccess ${customer}`)
          return false
        },
      }),
    })
    const nothingDelivered = {
      seed: 0,
      faults: [],
      steps: [{ kind: 'cancel', sub: -1, atPeriodEnd: true }],
    } as unknown as FlowProgram
    try {
      const report = await runFlow(nothingDelivered, mirrorSubject(factory, {}, 'test'), { headerPrefix: 'Stripe' })
      expect(report.steps).toEqual(['cancel sub#-1 at period end (no subscription)'])
      expect(resetDone).toBe(true)
      expect(readsBeforeReset).toEqual([])
    } finally {
      await api.close()
    }
  })

  it('passes the Express mirror on the wall clock, its API calls served by each run', async () => {
    const api = await serveRuns()
    const app = await startMirrorServer(api)
    try {
      const result = await checkSubscriptionMirror(attach(api, app.url), { headerPrefix: 'Stripe', numRuns: 6 })
      expect(result.violations ?? []).toEqual([])
      expect(result.ok).toBe(true)
      // The deliveries reached the app and passed its own constructEvent on the wall clock.
      expect(app.webhookAnswers.filter((s) => s === 200).length).toBeGreaterThan(10)
    } finally {
      await app.close()
      await api.close()
    }
  })

  it('catches the running mirror that ignores customer.subscription.deleted', async () => {
    const api = await serveRuns()
    const app = await startMirrorServer(api, true)
    try {
      const result = await checkSubscriptionMirror(attach(api, app.url), { headerPrefix: 'Stripe', numRuns: 40 })
      expect(result.ok).toBe(false)
      expect(result.violations?.map((v) => v.checker)).toContain('mirror.access_granted')
    } finally {
      await app.close()
      await api.close()
    }
  })

  it('passes a running shop that ships through recordUrl, its success page visited over HTTP', async () => {
    const api = await serveRuns()
    const { hostname, port } = new URL(api.apiUrl)
    const stripe = new Stripe(api.secretKey, { host: hostname, port: Number(port), protocol: 'http', maxNetworkRetries: 0 })
    const shipped = new Set<string>()
    const pages: number[] = []
    let dedupe = true
    const paid = (s: Stripe.Checkout.Session) => s.status === 'complete' && s.payment_status !== 'unpaid'
    const ship = async (session: string, source: string) => {
      if (dedupe && shipped.has(session)) return
      shipped.add(session)
      await fetch(api.recordUrl, { method: 'POST', body: JSON.stringify({ call: 'orders.fulfil', args: [session, source] }) })
    }
    const app = express()
    app.post('/webhook', express.raw({ type: '*/*' }), async (req, res) => {
      let event: Stripe.Event
      try {
        event = stripe.webhooks.constructEvent(req.body, String(req.headers['stripe-signature']), api.webhookSecret)
      } catch {
        return void res.sendStatus(400)
      }
      if (event.type === 'checkout.session.completed' && paid(event.data.object)) await ship(event.data.object.id, event.id)
      if (event.type === 'checkout.session.async_payment_succeeded') await ship(event.data.object.id, event.id)
      res.sendStatus(200)
    })
    app.get('/success', async (req, res) => {
      const session = await stripe.checkout.sessions.retrieve(String(req.query.session_id)).catch(() => undefined)
      if (session === undefined) return void res.sendStatus(503)
      if (paid(session)) await ship(session.id, 'success_page')
      pages.push(200)
      res.send('thanks')
    })
    const server = createServer(app)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      const running = api.app<FulfilmentEnv>({ url, reset: () => shipped.clear() })
      // What the harness keeps per delivery (an async context) must follow the app's calls back.
      const delivery = new AsyncLocalStorage<string>()
      const contexts: [string, string | undefined][] = []
      const shop = (env: FulfilmentEnv) => {
        const orders = {
          fulfil: (session: string, source?: string) => {
            contexts.push([source ?? '', delivery.getStore()])
            env.orders.fulfil(session, source)
          },
          reverse: env.orders.reverse,
        }
        const app = running({ ...env, orders })
        return { ...app, handler: (request: Request) => delivery.run('delivery', () => app.handler(request)) }
      }
      const cards = fulfilmentPayments.filter((p) => p.paymentMethod.startsWith('pm_card'))
      const result = await checkFulfilment(shop, { headerPrefix: 'Stripe', numRuns: 15, payments: cards })
      expect(result.violations ?? []).toEqual([])
      expect(pages.length).toBeGreaterThan(0)
      expect(contexts.filter(([source]) => source.startsWith('evt_')).map(([, c]) => c)).toContain('delivery')
      expect(contexts.filter(([source]) => source === 'success_page').every(([, c]) => c === undefined)).toBe(true)
      // The shipments the app recorded are judged: shipping every time is caught.
      dedupe = false
      const twice = await checkFulfilment(running, { headerPrefix: 'Stripe', numRuns: 20, payments: cards })
      expect(twice.violations?.map((v) => v.checker)).toContain('fulfilment.once')
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await api.close()
    }
  })
})
