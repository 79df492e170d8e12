import type { AddressInfo } from 'node:net'
import Stripe from 'stripe'
import { afterAll, beforeAll } from 'vitest'
import { type SimServer, startHttpServer } from '../../src/cli/http-server.js'
import type { Simulator } from '../../src/simulator/create-simulator.js'

/** What a suite gets from {@link servedAdmin}: its admin calls, the official client, serve's base URL. */
export interface ServedAdmin {
  /** A call of serve's admin API (`/__sim<path>`) with the suite's token: its status and JSON body. */
  admin(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, any> }>
  /** The official client against serve (set once the suite started). */
  readonly stripe: Stripe
  /** `http://127.0.0.1:<port>` (set once the suite started). */
  readonly base: string
}

/**
 * Serves `sim` over HTTP for the suite it is called in (started before its tests, closed after),
 * as the dashboard's pages reach it: the admin API behind `token`, and the official client.
 */
export function servedAdmin(sim: Simulator, token: string): ServedAdmin {
  let server: SimServer | undefined
  const served = {
    base: '',
    stripe: undefined as unknown as Stripe,
    async admin(method: string, path: string, body?: unknown) {
      const res = await fetch(`${served.base}/__sim${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
      return { status: res.status, body: (await res.json()) as Record<string, any> }
    },
  }
  beforeAll(async () => {
    server = await startHttpServer(sim, { adminToken: token })
    const port = (server.address() as AddressInfo).port
    served.base = `http://127.0.0.1:${port}`
    served.stripe = new Stripe(sim.platform.secretKey.test, { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0 })
  })
  afterAll(async () => {
    server?.closeAllConnections()
    await new Promise((done) => server?.close(done))
  })
  return served
}
