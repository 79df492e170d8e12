/**
 * `service-sim/msw`: request handlers that route the simulator's hosts to it in an msw server.
 *
 * @module service-sim/msw
 */
import { http, type RequestHandler } from 'msw'
import { hostsFor } from './hosts.js'

/** What the msw adapter needs of a simulator: its fetch handler and (optionally) its header prefix. */
export interface MswTarget {
  readonly fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>
  readonly service?: { readonly kernel: { readonly prefix: string } }
}

/**
 * msw request handlers that answer every request to the simulator's hosts with `sim.fetch`, for
 * teams whose tests already run an msw server. Unmatched hosts follow msw's own
 * `onUnhandledRequest` option (use `'error'` to fail loudly).
 *
 * @example
 * import { setupServer } from 'msw/node'
 * import { createSimulator } from 'service-sim'
 * import { simulatorHandlers } from 'service-sim/msw'
 * const sim = createSimulator({ seed: 1 })
 * const server = setupServer(...simulatorHandlers(sim))
 * server.listen({ onUnhandledRequest: 'error' })
 */
export function simulatorHandlers(sim: MswTarget, options: { hosts?: readonly string[] } = {}): RequestHandler[] {
  if (typeof sim !== 'object' || sim === null || typeof sim.fetch !== 'function')
    throw new TypeError('simulatorHandlers: sim must be a simulator (createSimulator) or an object with its fetch')
  if (typeof options !== 'object' || options === null) throw new TypeError('simulatorHandlers: options must be an object')
  const hosts = hostsFor(sim.service?.kernel.prefix ?? 'Service', options)
  return hosts.flatMap((host) =>
    ['https', 'http'].map((protocol) => http.all(`${protocol}://${host}/*`, ({ request }) => sim.fetch(request))),
  )
}
