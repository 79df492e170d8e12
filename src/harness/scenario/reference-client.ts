import { SignatureVerificationError, verifySignature } from '#domain/index.js'
import { headerNames, parseDuration } from '#kernel/index.js'
import type { ClientContext, ClientRequest, ClientResponse, ReceiverContext, ScenarioClient } from './client.js'

const num = (v: unknown, fallback: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback)
const dur = (v: unknown, fallback: number): number =>
  typeof v === 'number' || typeof v === 'string' ? (parseDuration(v) ?? fallback) : fallback

function retryable(res: ClientResponse, prefix: string): boolean {
  if (res.status === 429 || res.status >= 500) return true
  if (res.status === 409) return true
  return res.headers.get(headerNames(prefix).shouldRetry) === 'true'
}

/**
 * Sends a request, retrying 409, 429 and 5xx (and anything marked `<Prefix>-Should-Retry: true`)
 * with exponential backoff and full jitter on the virtual clock, reusing one idempotency key.
 */
async function sendWithRetry(ctx: ClientContext, args: Record<string, unknown>): Promise<ClientResponse> {
  const request = args.request as ClientRequest
  const max = num(args.max_retries, 3)
  const base = dur(args.base, 500)
  const key = request.method === 'POST' ? (request.idempotency_key ?? `ref-${Math.floor(ctx.random() * 1e12)}`) : undefined
  let res = await ctx.request({ ...request, ...(key ? { idempotency_key: key } : {}) })
  for (let attempt = 1; attempt <= max && retryable(res, ctx.prefix); attempt++) {
    await ctx.sleep(Math.round(ctx.random() * base * 2 ** (attempt - 1)))
    res = await ctx.request({ ...request, ...(key ? { idempotency_key: key } : {}) })
  }
  return res
}

/**
 * Streams usage on the meter event stream, renewing the session when its token expires and
 * resending the refused batch, as the provider recommends.
 */
async function streamUsage(ctx: ClientContext, args: Record<string, unknown>): Promise<Record<string, number>> {
  const count = num(args.count, 10)
  const batch = num(args.batch, 1)
  const every = dur(args.every, 60_000)
  const eventName = String(args.event_name ?? 'api_call')
  const customer = String(args.customer ?? 'cus_reference')
  const as = typeof args.as === 'string' ? args.as : undefined
  let sessions = 0
  let token = ''
  const open = async () => {
    const res = await ctx.request({ method: 'POST', path: '/v2/billing/meter_event_session', body: {}, ...(as ? { as } : {}) })
    if (res.status !== 200) throw new Error(`reference client: cannot open a meter event session (${res.status})`)
    sessions++
    token = res.body.authentication_token
  }
  await open()
  let sent = 0
  let renewals = 0
  for (let i = 0; i < count; i++) {
    const events = Array.from({ length: batch }, (_, j) => ({
      event_name: eventName,
      identifier: `ref_${i}_${j}`,
      payload: { service_customer_id: customer, value: String(num(args.value, 1)) },
    }))
    let res = await ctx.request({ method: 'POST', path: '/v2/billing/meter_event_stream', token, body: { events } })
    if (res.status === 401 && res.body?.error?.code === 'billing_meter_event_session_expired') {
      renewals++
      await open()
      res = await ctx.request({ method: 'POST', path: '/v2/billing/meter_event_stream', token, body: { events } })
    }
    if (res.status < 300) sent += batch
    if (i < count - 1) await ctx.sleep(every)
  }
  return { sent, sessions, renewals }
}

/**
 * The reference receiver: verifies the signature with every secret it knows (400 when none
 * matches), answers 2xx at once, and processes each event id once (duplicates are acknowledged).
 */
function referenceReceiver(ctx: ReceiverContext) {
  const processed = new Set<string>()
  return async (req: Request): Promise<Response> => {
    const raw = await req.text()
    const secrets = ctx.secrets()
    if (secrets.length > 0) {
      try {
        verifySignature(raw, req.headers.get(headerNames(ctx.prefix).signature), secrets, { now: ctx.sim.clock.now })
      } catch (error) {
        if (error instanceof SignatureVerificationError) return new Response(error.message, { status: 400 })
        throw error
      }
    }
    let id: string | undefined
    try {
      id = (JSON.parse(raw) as { id?: string }).id
    } catch {
      return new Response('body is not JSON', { status: 400 })
    }
    if (id !== undefined && !processed.has(id)) {
      processed.add(id)
      ctx.processed(id)
    }
    return new Response(JSON.stringify({ received: true }), { status: 200 })
  }
}

/**
 * The reference client: what a careful integration does. Actions `send_with_retry` and
 * `stream_usage`; a receiver that verifies signatures and deduplicates by event id.
 *
 * @example
 * // workload step: { client: { action: 'stream_usage', args: { event_name: 'api_call', count: 20, every: '1m' } } }
 */
export const referenceClient: ScenarioClient = {
  actions: { send_with_retry: sendWithRetry, stream_usage: streamUsage },
  receiver: referenceReceiver,
}
