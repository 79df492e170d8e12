/** An in-process webhook receiver: the customer's endpoint, as a fetch-style function. */
export type ReceiverHandler = (request: Request) => Response | Promise<Response>

// Every delivery attempt looks its URL up, and every fork mounts its receivers again: a URL's
// normal form is worked out once per process (bounded), not per simulator.
const hrefs = new Map<string, string>()

function normal(url: string, caller: string): string {
  if (typeof url !== 'string') throw new TypeError(`receivers.${caller}: url must be an absolute URL string, got ${typeof url}`)
  const known = hrefs.get(url)
  if (known !== undefined) return known
  let href: string
  try {
    href = new URL(url).href
  } catch {
    throw new TypeError(`receivers.${caller}: '${url.slice(0, 200)}' is not an absolute URL`)
  }
  if (hrefs.size < 10_000) hrefs.set(url, href)
  return href
}

/**
 * Webhook receivers mounted in process, by URL. Deliveries to a mounted URL call the handler with a
 * real `Request`; other URLs are delivered over the network (loopback) or fail to connect.
 *
 * @example
 * sim.receivers.mount('https://example.test/hooks', async (req) => new Response('ok'))
 */
export interface Receivers {
  mount(url: string, handler: ReceiverHandler): () => void
  unmount(url: string): boolean
  get(url: string): ReceiverHandler | undefined
  urls(): string[]
}

export function createReceivers(): Receivers {
  const byUrl = new Map<string, ReceiverHandler>()
  return {
    mount(url, handler) {
      if (typeof handler !== 'function')
        throw new TypeError('receivers.mount: handler must be a function (req: Request) => Response')
      const key = normal(url, 'mount')
      byUrl.set(key, handler)
      return () => byUrl.delete(key)
    },
    unmount(url) {
      return byUrl.delete(normal(url, 'unmount'))
    },
    get(url) {
      return byUrl.get(normal(url, 'get'))
    },
    urls() {
      return [...byUrl.keys()]
    },
  }
}
