import { refuseArgument } from '../refuse-argument.js'
import { HarnessInputError } from '../validate-input.js'
import { type AppFetch, type AppLike, toAppFetch } from './app-fetch.js'

/**
 * Where the provider posts webhooks in an app, unless told otherwise.
 *
 * @example
 * mountApp(build, { webhookPath: DEFAULT_WEBHOOK_PATH })
 */
export const DEFAULT_WEBHOOK_PATH = '/webhook'

/**
 * What an adapted app gives a property: its webhook `handler` (the delivery, sent to the app's
 * webhook route) and its `successPage` (the customer's browser sent back to the app, a GET of the
 * page's URL, path and query kept), beside the readers the user named.
 *
 * @example
 * const client: MountedApp = mountApp((env) => ({ app: myExpressApp(env) }))(env)
 */
export interface MountedApp {
  handler(request: Request): Promise<Response>
  successPage(url: string): Promise<Response>
}

/**
 * What the app of one run is built as: the app, and the readers of its state the property asks for.
 *
 * @example
 * const built: BuiltApp<{ hasAccess(c: string): boolean }> = { app: express(), hasAccess: () => false }
 */
export type BuiltApp<R> = { readonly app: AppLike | Promise<AppLike> } & R

/**
 * Settings of {@link mountApp}.
 *
 * @example
 * mountApp(build, { webhookPath: '/stripe/webhook' })
 */
export interface MountAppOptions {
  /** Path of the app's webhook route (default `/webhook`). */
  readonly webhookPath?: string
}

// A delivery as the app's own route receives it: the same method, headers and raw body, at `path`.
async function atPath(request: Request, path: string): Promise<Request> {
  const url = new URL(path, request.url)
  const body = request.method === 'GET' || request.method === 'HEAD' ? null : await request.arrayBuffer()
  return new Request(url, { method: request.method, headers: request.headers, body })
}

/**
 * Turns an app as users write it into the factory a flow property takes: `build(env)` makes the
 * app of one run (an Express or Fastify app, a Node listener, a Hono app, any `Request` handler;
 * see {@link AppLike}) from the run's env (its API base URL, key and `fetch`, its clock, its
 * signing secrets, its recorders: `orders`, `notices`, `effects`) with the readers of the app's
 * state the property asks for (`subscriptions` and `hasAccess` for the mirror; they may query the
 * app's database and answer a promise). The app is mounted in process, without a port, so the
 * run stays on the virtual clock. A redeploy calls `build` again: state the app keeps in memory
 * is lost, what it keeps in `env.store` is not.
 *
 * @example
 * const databases = new WeakMap<object, Map<string, MirroredSubscription>>() // one per run, kept across redeploys
 * const mirror = mountApp((env: FlowClientEnv) => {
 *   const db = databases.get(env.store) ?? new Map<string, MirroredSubscription>()
 *   databases.set(env.store, db)
 *   return { app: mirrorApp(env, db), subscriptions: async () => Object.fromEntries(db), hasAccess: (c: string) => granted(db, c) }
 * })
 * const result = await checkSubscriptionMirror(mirror, { headerPrefix: 'Stripe', numRuns: 20 })
 */
export function mountApp<E extends object, R extends object>(
  build: (env: E) => BuiltApp<R>,
  options: MountAppOptions = {},
): (env: E) => Omit<R, 'app'> & MountedApp {
  refuseArgument('mountApp', 'options', options, 'options')
  if (typeof build !== 'function')
    throw new HarnessInputError('mountApp: expected a build function (env) => ({ app, ...readers })')
  const webhookPath = options.webhookPath ?? DEFAULT_WEBHOOK_PATH
  if (typeof webhookPath !== 'string' || !webhookPath.startsWith('/'))
    throw new HarnessInputError(
      `mountApp: option 'webhookPath' must be a path starting with '/', got ${JSON.stringify(webhookPath)}`,
    )
  return (env) => {
    const built = build(env) as Partial<BuiltApp<R>> | undefined
    if (built === undefined || built === null || typeof built !== 'object' || !('app' in built))
      throw new HarnessInputError('mountApp: build(env) must return { app, ...readers }')
    const { app, ...readers } = built as BuiltApp<R>
    const call: Promise<AppFetch> = Promise.resolve(app).then((a) => toAppFetch(a, 'mountApp'))
    // A rejected build is the app failing to start: its requests fail, the run does not.
    call.catch(() => undefined)
    return {
      ...(readers as Omit<R, 'app'>),
      handler: async (request) => (await call)(await atPath(request, webhookPath)),
      successPage: async (url) => (await call)(new Request(url, { method: 'GET' })),
    }
  }
}
