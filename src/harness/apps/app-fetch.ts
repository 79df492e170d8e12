import { HarnessInputError } from '../validate-input.js'
import { fromNodeListener } from './from-node-listener.js'

/**
 * What a Node listener is handed, as far as the harness's types say: Node's `IncomingMessage` is
 * one. Declared here so the package's types do not need `@types/node` in a user's project.
 *
 * @example
 * const path = (req: NodeRequestLike) => req.url ?? '/'
 */
export interface NodeRequestLike {
  readonly method?: string | undefined
  readonly url?: string | undefined
  readonly headers: Readonly<Record<string, string | string[] | undefined>>
  /** The body as Node streams it (`'data'` chunks, then `'end'`). */
  on(event: string, listener: (...args: never[]) => void): unknown
}

/**
 * What a Node listener answers through, as far as the harness's types say: Node's
 * `ServerResponse` is one.
 *
 * @example
 * const ok = (res: NodeResponseLike) => res.writeHead(200).end('ok')
 */
export interface NodeResponseLike {
  statusCode: number
  writeHead(status: number, headers?: Readonly<Record<string, string>>): { end(body?: string | Uint8Array): unknown }
  end(body?: string | Uint8Array): unknown
}

/**
 * A Node `http` request listener: what `http.createServer` takes, an Express app, Fastify's
 * `routing`. Its parameters are checked both ways (method syntax), so a listener typed with
 * Node's own `IncomingMessage` and `ServerResponse` fits.
 *
 * @example
 * const listener: NodeListener = (req, res) => res.writeHead(200).end('ok')
 */
export type NodeListener = {
  listener(req: NodeRequestLike, res: NodeResponseLike): void
}['listener']

/**
 * A handler of WHATWG requests: what `app.fetch` of Hono (or itty, Elysia, a Worker) is.
 *
 * @example
 * const handler: RequestHandler = (request) => new Response(request.method)
 */
export type RequestHandler = (request: Request) => Response | Promise<Response>

/**
 * An app with a `fetch(request)` method: a Hono app, any Workers-style app.
 *
 * @example
 * const app: FetchApp = new Hono().post('/webhook', (c) => c.text('ok'))
 */
export interface FetchApp {
  fetch(request: Request): Response | Promise<Response>
}

/**
 * A Fastify instance, as far as mounting it goes: booted by `ready()`, served by its `routing` listener.
 *
 * @example
 * const app: FastifyLike = Fastify()
 */
export interface FastifyLike {
  ready(): PromiseLike<unknown>
  routing(req: NodeRequestLike, res: NodeResponseLike): void
}

/**
 * An app as users have it. A function with two or more parameters is a Node listener (an Express
 * app declares three), one with fewer a `Request` handler; `{ listener }` and `{ handler }` say it
 * outright when the parameter count misleads (rest or default parameters).
 *
 * @example
 * const app: AppLike = express() // or Fastify(), new Hono(), (req, res) => res.end('ok'), (request) => new Response('ok')
 */
export type AppLike =
  | NodeListener
  | RequestHandler
  | FetchApp
  | FastifyLike
  | { readonly listener: NodeListener }
  | { readonly handler: RequestHandler }

/**
 * An app reduced to one shape: a `Request` in, a `Response` out, in process.
 *
 * @example
 * const call: AppFetch = toAppFetch(app)
 */
export type AppFetch = (request: Request) => Promise<Response>

/**
 * Reduces any {@link AppLike} to an {@link AppFetch}. A Node listener is served in memory (no
 * socket, no port; see {@link fromNodeListener}), a Fastify instance too once `ready()` has booted
 * it (its `routing` is its listener); a `Request` handler or a `fetch` app is called as it is. `api` names the caller in the error a value of no known shape gets.
 *
 * @example
 * const call = toAppFetch(express().post('/webhook', (req, res) => res.sendStatus(200)))
 * const res = await call(new Request('http://app.test/webhook', { method: 'POST', body: '{}' }))
 */
export function toAppFetch(app: AppLike, caller = 'toAppFetch'): AppFetch {
  const api = typeof caller === 'string' && caller !== '' ? caller : 'toAppFetch'
  if (typeof app === 'function') {
    if (app.length >= 2) return fromNodeListener(app as NodeListener)
    const handler = app as RequestHandler
    return async (request) => handler(request)
  }
  if (app !== null && typeof app === 'object') {
    if ('listener' in app && typeof app.listener === 'function') return fromNodeListener(app.listener)
    if ('routing' in app && typeof app.routing === 'function' && 'ready' in app && typeof app.ready === 'function') {
      const fastify = app as FastifyLike
      const call = fromNodeListener((req, res) => fastify.routing(req, res))
      return async (request) => {
        await fastify.ready()
        return call(request)
      }
    }
    if ('handler' in app && typeof app.handler === 'function') {
      const handler = app.handler
      return async (request) => handler(request)
    }
    if ('fetch' in app && typeof app.fetch === 'function') {
      const fetchApp = app as FetchApp
      return async (request) => fetchApp.fetch(request)
    }
  }
  throw new HarnessInputError(
    `${api}: expected an app: a Node request listener (req, res), an Express app, a Request handler, an object with fetch(request) (a Hono app), or { listener } / { handler }`,
  )
}
