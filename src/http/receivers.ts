/** An in-process webhook receiver: the customer's endpoint, as a fetch-style function. */
export type ReceiverHandler = (request: Request) => Response | Promise<Response>

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
  // Every delivery attempt looks its URL up; parsing it each time showed in long retry runs.
  const hrefs = new Map<string, string>()
  const normal = (url: string) => {
    const known = hrefs.get(url)
    if (known !== undefined) return known
    let href: string
    try {
      href = new URL(url).href
    } catch {
      throw new TypeError(`receivers.mount: '${url}' is not an absolute URL`)
    }
    if (hrefs.size < 10_000) hrefs.set(url, href)
    return href
  }
  return {
    mount(url, handler) {
      if (typeof handler !== 'function')
        throw new TypeError('receivers.mount: handler must be a function (req: Request) => Response')
      const key = normal(url)
      byUrl.set(key, handler)
      return () => byUrl.delete(key)
    },
    unmount: (url) => byUrl.delete(normal(url)),
    get: (url) => byUrl.get(normal(url)),
    urls: () => [...byUrl.keys()],
  }
}
