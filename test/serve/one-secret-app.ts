import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'

/** A webhook app as the provider's samples write one: one endpoint, one secret, `constructEvent`. */
export interface OneSecretApp {
  readonly url: string
  /** Events whose signature verified, in arrival order (thin ones as their notification: id, type). */
  readonly verified: { id: string; type: string; account?: string | undefined }[]
  /** Deliveries refused: the verification error's message. */
  readonly refused: string[]
  /** Most deliveries the app was answering at once. */
  readonly mostAtOnce: number
  /** Sets the one secret (read from the printed banner or the `.env` file). */
  useSecret(secret: string): void
  close(): Promise<void>
}

const stripe = new Stripe('sk_test_unused')

/** How the app reads deliveries: snapshot events (`constructEvent`) or thin ones (`parseEventNotification`). */
export interface OneSecretAppOptions {
  readonly path?: string
  readonly thin?: boolean
  /** Real milliseconds the app takes to answer. */
  readonly answerDelayMs?: number
  /** Work the app does before it answers (e.g. fetch the object the event names from the API). */
  readonly beforeAnswer?: (event: { id: string; type: string; object?: unknown }) => Promise<void>
}

/**
 * Starts the app on a free loopback port; until a secret is set it answers 503 (not ready).
 *
 * @example
 * const app = await startOneSecretApp({ path: '/webhook' })
 */
export async function startOneSecretApp(options: OneSecretAppOptions = {}): Promise<OneSecretApp> {
  const path = options.path ?? '/webhook'
  const answerDelayMs = options.answerDelayMs ?? 0
  let secret: string | undefined
  const verified: OneSecretApp['verified'] = []
  const refused: string[] = []
  let atOnce = 0
  let mostAtOnce = 0
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    atOnce++
    mostAtOnce = Math.max(mostAtOnce, atOnce)
    res.on('close', () => {
      atOnce--
    })
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      if (req.url !== path || secret === undefined) return void res.writeHead(503).end()
      try {
        const body = Buffer.concat(chunks).toString('utf8')
        const header = String(req.headers['stripe-signature'])
        const event = options.thin
          ? stripe.parseEventNotification(body, header, secret)
          : stripe.webhooks.constructEvent(body, header, secret)
        verified.push({ id: event.id, type: event.type, account: 'account' in event ? (event.account as string) : undefined })
        const done = () => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"received":true}')
        const object = 'data' in event ? (event.data as { object?: unknown }).object : undefined
        const work = options.beforeAnswer?.({ id: event.id, type: event.type, object }) ?? Promise.resolve()
        work.then(
          () => (answerDelayMs > 0 ? setTimeout(done, answerDelayMs) : done()),
          (error: unknown) => res.writeHead(500).end(String(error)),
        )
      } catch (error) {
        refused.push((error as Error).message)
        res.writeHead(400).end(`Webhook Error: ${(error as Error).message}`)
      }
    })
  })
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`
  return {
    url,
    verified,
    refused,
    get mostAtOnce() {
      return mostAtOnce
    },
    useSecret: (s) => {
      secret = s
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  }
}
