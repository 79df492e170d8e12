import type { FlowClientEnv } from '../flows/flow-run.js'
import { resignDelivery } from './resign-delivery.js'

const NULL_BODY = new Set([101, 204, 205, 304])

/**
 * How deliveries and page visits reach an app outside the process.
 *
 * @example
 * const how: Forwarding = { appUrl: 'http://127.0.0.1:4242', appSecret: 'whsec_app', answerMs: 10_000, now: callerNow, runSecrets: () => ['whsec_run'] }
 */
export interface Forwarding {
  /** The app's base URL, e.g. `http://127.0.0.1:4242`. */
  readonly appUrl: string
  /** The one signing secret the app was started with. */
  readonly appSecret: string
  /** Real milliseconds the app has to answer. */
  readonly answerMs: number
  /** The app's clock (epoch ms): what a delivery's timestamp is moved onto. */
  readonly now: () => number
  /** The provider's signing secrets of the destination now (what makes a delivery genuine). */
  readonly runSecrets: () => readonly string[]
  /** Where a connected account's event goes, when the run has a Connect endpoint. */
  readonly connect?: ConnectForwarding | undefined
}

/**
 * How a connected account's event (its body carries `account`) reaches an app on a port: at the
 * app's Connect endpoint route, under the Connect secret the app was started with.
 *
 * @example
 * const connect: ConnectForwarding = { path: '/webhook/connect', appSecret: 'whsec_app_connect', runSecrets: () => ['whsec_run_connect'] }
 */
export interface ConnectForwarding {
  /** Path of the app's Connect endpoint route. */
  readonly path: string
  /** The Connect endpoint's secret the app was started with. */
  readonly appSecret: string
  /** The provider's signing secrets of the run's Connect endpoint now. */
  readonly runSecrets: () => readonly string[]
}

/**
 * Whether a delivery's body is a connected account's event (it carries `account`): the provider
 * sends those to the Connect endpoint alone, so a forgery of one is aimed there too.
 */
function connectedAccountEvent(body: string): boolean {
  try {
    return typeof (JSON.parse(body) as { account?: unknown } | null)?.account === 'string'
  } catch {
    return false
  }
}

/** The app's answer as a `Response` (its body read whole; only its content type kept). */
async function answerOf(res: Response): Promise<Response> {
  const payload = await res.arrayBuffer()
  const type = res.headers.get('content-type')
  return new Response(NULL_BODY.has(res.status) ? null : payload, {
    status: res.status,
    headers: type === null ? {} : { 'content-type': type },
  })
}

/**
 * Sends a request of the run to the app over the loopback network: a delivery to its webhook
 * path, re-signed for the app's secret and clock ({@link resignDelivery}), a connected account's
 * event to its Connect route under its Connect secret (`how.connect`); a page visit as it is.
 * No answer within `answerMs` is a 504, an app that cannot be reached a 502 (the delivery failed,
 * and is retried on the provider's schedule).
 *
 * @example
 * const res = await forwardToApp(delivery, '/webhook', env, forwarding)
 */
export async function forwardToApp(request: Request, path: string, env: FlowClientEnv, how: Forwarding): Promise<Response> {
  const headers = new Headers(request.headers)
  const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text()
  const connect = body !== undefined && how.connect !== undefined && connectedAccountEvent(body) ? how.connect : undefined
  const target = new URL(connect?.path ?? path, how.appUrl)
  const name = `${env.prefix}-Signature`
  const header = headers.get(name)
  if (header !== null && body !== undefined) {
    const shiftSeconds = Math.floor(how.now() / 1000) - Math.floor(env.clock.now / 1000)
    const { runSecrets, appSecret } = connect ?? how
    headers.set(name, resignDelivery(header, body, { runSecrets: runSecrets(), appSecret, shiftSeconds }))
  }
  try {
    const res = await fetch(target, {
      method: request.method,
      headers,
      ...(body === undefined ? {} : { body }),
      signal: AbortSignal.timeout(how.answerMs),
    })
    return await answerOf(res)
  } catch (error) {
    const e = error as { name?: string; message?: string; cause?: { code?: string } }
    if (e.name === 'TimeoutError' || e.name === 'AbortError')
      return new Response(`No answer from ${target.origin} within ${how.answerMs} ms (wall clock).`, { status: 504 })
    return new Response(`Could not reach ${target.origin}: ${e.cause?.code ?? e.message ?? String(error)}`, { status: 502 })
  }
}
