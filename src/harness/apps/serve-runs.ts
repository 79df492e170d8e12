import { AsyncLocalStorage } from 'node:async_hooks'
import type { AddressInfo } from 'node:net'
import { callerNow, wallPause } from '#kernel/index.js'
import { type FlowClientEnv, flowRunOf } from '../flows/flow-run.js'
import { releaseRunCrypto } from '../flows/flow-run-globals.js'
import { refuseArgument } from '../refuse-argument.js'
import { CausalRecorder } from '../rules/causal-recorder.js'
import { HarnessInputError, shownValue } from '../validate-input.js'
import { forwardToApp } from './forward-to-app.js'
import { type ContextRunner, listenForApp, RECORD_PATH, type ServedRun } from './listen-for-app.js'
import { DEFAULT_WEBHOOK_PATH, type MountedApp } from './mount-app.js'
import { waitForAppAnswers } from './wait-for-app-answers.js'

/** One forward at a time: the app's calls that arrive meanwhile can then only be that one's. */
interface Queue {
  queue: Promise<unknown>
}

/**
 * Forwards one delivery or page visit after those before it, with the caller's async context
 * registered for the app's calls that arrive meanwhile.
 */
function inContext(
  served: ServedRun & Queue,
  forward: () => Promise<Response>,
  effects?: FlowClientEnv['effects'],
): Promise<Response> {
  const run: ContextRunner = AsyncLocalStorage.snapshot()
  const turn = served.queue.then(async () => {
    served.inFlight.add(run)
    try {
      const answer = await forward()
      if (effects instanceof CausalRecorder) effects.answeredWith(answer.status)
      return answer
    } finally {
      await untilQuiet(served)
      served.inFlight.delete(run)
    }
  })
  served.queue = turn.catch(() => undefined)
  return turn
}

/** Real milliseconds with no request from the app after an answer before the next forward. */
const QUIET_MS = 25
/** The longest an app's work after an answer is waited for, in real milliseconds. */
const QUIET_LIMIT_MS = 2_000

/**
 * Waits (in real time) until the app has made no request of the harness for `QUIET_MS`: work it
 * left running after answering (a job that ships, then records it) is still the answered
 * delivery's, so its calls are served in that delivery's context (an effect recorded there is
 * `ack.before_durable`), and never land in the next delivery or the next run.
 */
async function untilQuiet(served: ServedRun): Promise<void> {
  let waited = 0
  let seen = -1
  while (seen !== (served.calls ?? 0) && waited < QUIET_LIMIT_MS) {
    seen = served.calls ?? 0
    await wallPause(QUIET_MS)
    waited += QUIET_MS
  }
}

/** The app's state readers, each waiting for `ready` (the reset or redeploy) before it reads. */
function afterReady<R extends object>(readers: R, ready: Promise<unknown>): R {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(readers))
    out[key] =
      typeof value === 'function'
        ? async (...args: unknown[]) => {
            await ready
            return (value as (...a: unknown[]) => unknown).apply(readers, args)
          }
        : value
  return out as R
}

/**
 * Settings of {@link serveRuns}.
 *
 * @example
 * const server = await serveRuns({ port: 12112, answerMs: 5_000 })
 */
export interface ServeRunsOptions {
  /** Port on 127.0.0.1 (default 0: a free one). */
  readonly port?: number
  /** The secret key to start the app with (default `sk_test_harness_app`); each run swaps in its own. */
  readonly secretKey?: string
  /** The webhook signing secret to start the app with (default `whsec_harness_app`). */
  readonly webhookSecret?: string
  /**
   * The Connect endpoint's signing secret to start the app with (default
   * `whsec_harness_app_connect`), for a rule set with `connect: true`; it must differ from
   * `webhookSecret`, as the provider's two endpoints' secrets do.
   */
  readonly connectWebhookSecret?: string
  /** Real milliseconds the app has to answer a delivery or a page visit (default 10,000). */
  readonly answerMs?: number
  /** The app's clock, epoch ms (default the wall clock): delivery timestamps are moved onto it. */
  readonly now?: () => number
}

/**
 * How the harness reaches an app already running.
 *
 * @example
 * server.app({ url: 'http://127.0.0.1:4242', webhookPath: '/stripe/webhook', reset: () => resetDatabase() })
 */
export interface RunningAppOptions<E extends FlowClientEnv, R extends object> {
  /** The app's base URL, e.g. `http://127.0.0.1:4242`. */
  readonly url: string
  /** Path of its webhook route (default `/webhook`). */
  readonly webhookPath?: string
  /**
   * Path of its Connect endpoint's route, where a rule set with `connect: true` sends the
   * connected accounts' events (default `webhookPath`: one route trying both secrets).
   */
  readonly connectWebhookPath?: string
  /** Empties the app's database before each run (e.g. `POST /test/reset`); awaited before the first delivery. */
  readonly reset?: (env: E) => void | Promise<void>
  /** Restarts the app when a property redeploys it (`x:restart`); without it the app keeps running as it is. */
  readonly redeploy?: (env: E) => void | Promise<void>
  /** The readers of the app's state the property asks for (e.g. `subscriptions`, `hasAccess`), usually over HTTP. */
  readonly state?: (env: E) => R
}

/**
 * The harness's server for an app on a port: start the app with its URL, key and secret.
 *
 * @example
 * const server: RunServer = await serveRuns()
 * console.log(server.apiUrl, server.secretKey, server.webhookSecret, server.connectWebhookSecret)
 */
export interface RunServer {
  /** Base URL of the API to start the app with (the official client's host, port and protocol). */
  readonly apiUrl: string
  readonly secretKey: string
  readonly webhookSecret: string
  /** The Connect endpoint's signing secret: what the connected accounts' events are signed with. */
  readonly connectWebhookSecret: string
  /** `POST` here (JSON `{ call, args }`) records an effect through the run's env, e.g. `orders.fulfil`. */
  readonly recordUrl: string
  /** The factory a flow property takes, for the app at `options.url`. */
  app<E extends FlowClientEnv, R extends object = object>(options: RunningAppOptions<E, R>): (env: E) => R & MountedApp
  close(): Promise<void>
}

/** A route of the app, as `app()` is given it: a path starting with '/'. */
function pathOption(name: string, value: unknown, fallback: string): string {
  const path = value === undefined ? fallback : value
  if (typeof path !== 'string' || !path.startsWith('/'))
    throw new HarnessInputError(`serveRuns: app() option '${name}' must be a path starting with '/', got ${shownValue(path)}`)
  return path
}

/**
 * The two signing secrets the app is started with: each a non-empty string without spaces or
 * commas (it goes into an environment variable and is compared with a header's parts), and
 * different, or an app that verifies a Connect delivery with the platform's secret would pass.
 */
function secretsOf(options: ServeRunsOptions): { webhookSecret: string; connectWebhookSecret: string } {
  const webhookSecret = options.webhookSecret ?? 'whsec_harness_app'
  const connectWebhookSecret = options.connectWebhookSecret ?? 'whsec_harness_app_connect'
  for (const [name, value] of [
    ['webhookSecret', webhookSecret],
    ['connectWebhookSecret', connectWebhookSecret],
  ] as const)
    if (typeof value !== 'string' || !/^[^\s,]+$/.test(value))
      throw new HarnessInputError(
        `serveRuns: option '${name}' must be a non-empty string without spaces or commas, got ${shownValue(value)}`,
      )
  if (webhookSecret === connectWebhookSecret)
    throw new HarnessInputError(
      `serveRuns: option 'connectWebhookSecret' must differ from 'webhookSecret' (the Connect endpoint signs with a secret of its own), both are ${shownValue(webhookSecret)}`,
    )
  return { webhookSecret, connectWebhookSecret }
}

/**
 * Serves each run of a flow property over HTTP to an app that is already running, in any
 * language: the app's API calls reach the current run's simulator (its faults included), the
 * run's deliveries are forwarded to the app's webhook URL, re-signed with the app's secret at
 * the app's clock (keeping their age, so a replay stays stale; a rule set with `connect: true`
 * sends the connected accounts' events to its Connect route, under its Connect secret), the success page is a GET of the
 * app, the app's effects come back through `recordUrl`, its state through the readers given to
 * `app()`, and `reset` empties it between runs. The virtual clock waits for each of the app's
 * answers. The limits of a real process and a real clock are in docs/apps.md.
 *
 * @example
 * const server = await serveRuns()
 * // start the app with STRIPE_API_BASE=server.apiUrl, server.secretKey, server.webhookSecret (and server.connectWebhookSecret)
 * const mirror = server.app({ url: 'http://127.0.0.1:4242', reset: () => fetch('http://127.0.0.1:4242/test/reset', { method: 'POST' }).then(() => undefined),
 *   state: () => ({ subscriptions: () => getJson('/test/subscriptions'), hasAccess: (c: string) => getJson(`/test/access/${c}`) }) })
 * const result = await checkSubscriptionMirror(mirror, { headerPrefix: 'Stripe', numRuns: 10 })
 * await server.close()
 */
export async function serveRuns(options: ServeRunsOptions = {}): Promise<RunServer> {
  refuseArgument('serveRuns', 'options', options, 'options')
  const { port } = options
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65_536))
    throw new HarnessInputError(`serveRuns: option 'port' must be a port number from 0 to 65535, got ${String(port)}`)
  const secretKey = options.secretKey ?? 'sk_test_harness_app'
  const { webhookSecret, connectWebhookSecret } = secretsOf(options)
  const served: ServedRun & Queue = { current: undefined, appKey: secretKey, inFlight: new Set(), queue: Promise.resolve() }
  const server = await listenForApp(served, options.port ?? 0)
  const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const answerMs = options.answerMs ?? 10_000
  const now = options.now ?? callerNow
  const seen = new WeakSet<FlowClientEnv['fetch']>()
  return {
    apiUrl,
    secretKey,
    webhookSecret,
    connectWebhookSecret,
    recordUrl: apiUrl + RECORD_PATH,
    app<E extends FlowClientEnv, R extends object = object>(app: RunningAppOptions<E, R>) {
      if (typeof app?.url !== 'string') throw new HarnessInputError("serveRuns: app() needs the app's base URL: { url }")
      const webhookPath = pathOption('webhookPath', app.webhookPath, DEFAULT_WEBHOOK_PATH)
      const connectPath = pathOption('connectWebhookPath', app.connectWebhookPath, webhookPath)
      return (env: E) => {
        const run = flowRunOf(env)
        if (run === undefined)
          throw new HarnessInputError(
            'serveRuns: an app on a port runs under the flow properties (checkSubscriptionMirror, checkFulfilment, checkDunning, checkRules)',
          )
        // The app runs in its own process, on the real clock: this one's Web Crypto is left real.
        releaseRunCrypto(run)
        // A new simulator is a new run; the same one again is a redeploy within the run.
        const first = !seen.has(env.fetch)
        seen.add(env.fetch)
        served.current = env
        if (first) waitForAppAnswers(run)
        // Genuine is what the provider signed with, whatever secrets the deployed app was given.
        const signing = (destination: string) => () => run.sim.admin.signingSecrets(destination)
        const { destination, connectDestination } = run.setup
        const connect =
          connectDestination === undefined
            ? undefined
            : { path: connectPath, appSecret: connectWebhookSecret, runSecrets: signing(connectDestination) }
        const how = { appUrl: app.url, appSecret: webhookSecret, answerMs, now, runSecrets: signing(destination), connect }
        const ready = Promise.resolve(first ? app.reset?.(env) : app.redeploy?.(env))
        ready.catch(() => undefined)
        // The readers wait for the reset too: a run that delivers nothing must not read the
        // previous run's state.
        const readers = afterReady(app.state?.(env) ?? ({} as R), ready)
        return {
          ...readers,
          handler: async (request: Request) => {
            await ready
            return inContext(served, () => forwardToApp(request, webhookPath, env, how), env.effects)
          },
          successPage: async (url: string) => {
            await ready
            const page = new URL(url)
            return inContext(served, () =>
              forwardToApp(new Request(url, { method: 'GET' }), page.pathname + page.search, env, how),
            )
          },
        }
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        served.current = undefined
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}
