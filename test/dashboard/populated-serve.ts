import { mkdtempSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Stripe from 'stripe'
import { CounterexampleSource } from '../../src/cli/counterexample/counterexample-source.js'
import { startHttpServer } from '../../src/cli/http-server.js'
import { createSimulator } from '../../src/simulator/create-simulator.js'
import { writeDunningCounterexample } from './browser-kit.js'
import { customerWithEverything } from './customer-with-everything.js'

/** A page of the dashboard, where it is and a text it shows once its data has arrived. */
export interface DashboardStop {
  readonly title: string
  readonly hash: string
  readonly shows: string
  /** A row's button that opens its detail beside the list, and what the detail shows. */
  readonly opens?: {
    /** A filter of the list to fill first (its label, the text), for a row further down. */
    readonly filter?: { readonly label: string; readonly text: string }
    readonly button: RegExp
    readonly shows: string
  }
}

/**
 * `serve` with something on every page: an endpoint whose app answers 503 (a failed delivery and
 * a retry due), a customer with one of everything, a fault injected, and the dunning property's
 * counterexample under `--counterexamples`. `stops` lists the pages with what each shows.
 */
export async function populatedServe(token: string) {
  const sim = createSimulator({ seed: 44, headerPrefix: 'Stripe', limits: false })
  const dir = mkdtempSync(join(tmpdir(), 'service-sim-pages-'))
  writeDunningCounterexample(dir)
  const server = await startHttpServer(sim, { adminToken: token, counterexamples: new CounterexampleSource(dir) })
  const port = (server.address() as AddressInfo).port
  const serve = `http://127.0.0.1:${port}`
  const app = createServer((req, res) => {
    req.resume()
    req.on('end', () => res.writeHead(503, { 'Content-Type': 'application/json' }).end('{"error":"maintenance"}'))
  })
  await new Promise<void>((ready) => app.listen(0, '127.0.0.1', ready))
  const stripe = new Stripe(sim.platform.secretKey.test, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 })
  const endpoint = await stripe.webhookEndpoints.create({
    url: `http://127.0.0.1:${(app.address() as AddressInfo).port}/webhook`,
    enabled_events: ['customer.created'],
  })
  const made = await customerWithEverything(stripe)
  const admin = (path: string, body: unknown) =>
    fetch(`${serve}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })
  await admin('/__sim/clock/advance', { duration: '1s' })
  const stops: readonly DashboardStop[] = [
    {
      title: 'Requests',
      hash: '#requests',
      shows: 'POST',
      opens: { button: /^Show POST \/v1\/customers /, shows: 'Response body' },
    },
    {
      title: 'Events and deliveries',
      hash: '#events',
      shows: 'events',
      opens: {
        filter: { label: 'Event type contains', text: 'customer.created' },
        button: /^Show customer\.created evt_/,
        shows: 'maintenance',
      },
    },
    { title: 'Webhook endpoints', hash: '#endpoints', shows: endpoint.id },
    { title: 'Objects', hash: `#objects/${made.customer.id}`, shows: made.refund.id },
    { title: 'Clock and triggers', hash: '#clock', shows: 'Trigger' },
    { title: 'Faults', hash: '#faults', shows: 'Inject' },
    { title: 'Counterexample', hash: '#counterexample', shows: 'Setup: ' },
  ]
  return {
    sim,
    serve,
    stops,
    endpoint,
    customer: made.customer,
    async close() {
      await new Promise((done) => app.close(done))
      server.closeAllConnections()
      await new Promise((done) => server.close(done))
    },
  }
}
