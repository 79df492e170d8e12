import express from 'express'
import type { MirroredSubscription } from 'service-sim/harness'
import { mirroredFields } from 'service-sim/harness'
import type Stripe from 'stripe'

/** The app's database: subscriptions by id, behind async calls as a real one is. */
export class SubscriptionTable {
  private readonly rows = new Map<string, MirroredSubscription>()
  async upsert(id: string, row: MirroredSubscription): Promise<void> {
    this.rows.set(id, row)
  }
  async all(): Promise<Record<string, MirroredSubscription>> {
    return Object.fromEntries(this.rows)
  }
  async hasAccess(customer: string): Promise<boolean> {
    return [...this.rows.values()].some((r) => r.customer === customer && ['active', 'trialing'].includes(r.status))
  }
  async clear(): Promise<void> {
    this.rows.clear()
  }
}

/** What the app is started with. */
export interface MirrorAppConfig {
  readonly stripe: Stripe
  /** The webhook signing secrets it accepts (one, or two during a roll). */
  readonly secrets: () => readonly string[]
  readonly db: SubscriptionTable
  /** The time a delivery is received at, ms (default: the wall clock, as in production). */
  readonly now?: () => number
  /** The classic mistake: ignore `customer.subscription.deleted`, so a cancelled customer keeps access. */
  readonly ignoresDeleted?: boolean
  /** Serve `/test/...` routes a test reads the state through and resets it with. */
  readonly testRoutes?: boolean
}

/**
 * The mirror's webhook, whatever the framework: verifies `Stripe-Signature` on the raw body, and
 * on any `customer.subscription.*` event reads the subscription as it is now (so late or repeated
 * deliveries change nothing) and stores it. A failed read answers 500, so the provider delivers
 * the event again. Answers the status to send.
 */
export async function mirrorWebhook(config: MirrorAppConfig, raw: Buffer, signature: string): Promise<number> {
  const { stripe, db } = config
  let event: Stripe.Event | undefined
  for (const secret of config.secrets()) {
    try {
      event = stripe.webhooks.constructEvent(raw, signature, secret, 300, undefined, config.now?.())
      break
    } catch {
      // Try the next secret.
    }
  }
  if (event === undefined) return 400
  if (!event.type.startsWith('customer.subscription.')) return 200
  if (event.type === 'customer.subscription.deleted' && config.ignoresDeleted) return 200
  const { id } = event.data.object as Stripe.Subscription
  try {
    const current = await stripe.subscriptions.retrieve(id)
    await db.upsert(id, mirroredFields(current as unknown as Record<string, unknown>))
    return 200
  } catch {
    return 500
  }
}

/**
 * An Express subscription mirror as apps write it: `POST /webhook` (raw body) runs
 * {@link mirrorWebhook}; access is an active or trialing subscription. With `testRoutes`, a test
 * reads its state and resets it over HTTP.
 */
export function expressMirrorApp(config: MirrorAppConfig): express.Express {
  const { db } = config
  const app = express()
  app.post('/webhook', express.raw({ type: '*/*' }), async (req, res) => {
    res.sendStatus(await mirrorWebhook(config, req.body as Buffer, String(req.headers['stripe-signature'] ?? '')))
  })
  if (config.testRoutes) {
    app.get('/test/subscriptions', async (_req, res) => void res.json(await db.all()))
    app.get('/test/access/:customer', async (req, res) => void res.json(await db.hasAccess(req.params.customer)))
    app.post('/test/reset', async (_req, res) => {
      await db.clear()
      res.sendStatus(204)
    })
  }
  return app
}
