import { signatureHeader } from '#domain/index.js'
import { headerNames } from '#kernel/index.js'
import type { Simulator } from '#simulator/index.js'
import { type Driven, drive } from '../run/drive.js'
import type { FlowForgery } from './flow-program.js'
import { receiverOnWallClock } from './real-time-receiver.js'

type Json = Record<string, unknown>

/** An event the destination was sent in a flow, as the forger and the redeliveries pick from. */
export interface SentEvent {
  readonly id: string
  readonly type: string
  readonly objectId: string
  readonly body: Readonly<Json>
}

/** How long the forger waits for the answer of an app in process (virtual ms). */
const FORGE_BUDGET_MS = 60_000

/** The object's state as the provider holds it now (the forger claims another). */
function currentObject(sim: Simulator, object: Json): Json {
  const name = String(object.object)
  try {
    const found = sim.service.engine.resource(name).get({ account: sim.platform.id, mode: 'test' }, String(object.id)) as
      | Json
      | undefined
    return found ?? object
  } catch {
    // An object kind the engine does not store by that name: the event's own copy.
    return object
  }
}

/**
 * The status the provider holds now for an object named by id (undefined when it has none).
 *
 * @example
 * providerStatus(sim, 'sub_123') // 'active'
 */
export function providerStatus(sim: Simulator, id: string): unknown {
  return providerObject(sim, id)?.status
}

/** The object the provider holds now for an id of a kind the flows make (undefined for another kind). */
function providerObject(sim: Simulator, id: string): Json | undefined {
  const name = id.startsWith('sub_')
    ? 'subscription'
    : id.startsWith('in_')
      ? 'invoice'
      : id.startsWith('cs_')
        ? 'checkout.session'
        : undefined
  return name === undefined ? undefined : currentObject(sim, { object: name, id })
}

/**
 * What an object's JSON comes to as a subject's `statusOf` reports the app's copy: its `status`
 * unless the subject says more (the mirror compares every field it mirrors).
 *
 * @example
 * const claimed = statusOfObject(event.data.object) // 'active'
 */
export const statusOfObject = (object: Json): unknown => object.status

/**
 * The type the attacker forges about an object of `kind` (`checkout.session`, `subscription`,
 * `invoice`, else a payment) in `state`: the event that would say the opposite of it.
 *
 * @example
 * forgedType('subscription', 'active') // 'customer.subscription.deleted'
 */
export function forgedType(kind: string, state: string): string {
  if (kind === 'checkout.session') return 'checkout.session.completed'
  if (kind === 'subscription')
    return state === 'active' || state === 'trialing' ? 'customer.subscription.deleted' : 'customer.subscription.updated'
  if (kind === 'invoice') return state === 'paid' ? 'invoice.payment_failed' : 'invoice.paid'
  return 'payment_intent.succeeded'
}

/**
 * What the attacker claims about an object: the opposite of what the provider holds now, so an app
 * acting on it does what no genuine event asked (a session fulfilled unpaid, access revoked from a
 * paying customer, a paid invoice dunned).
 */
function claim(current: Json): { type: string; object: Json } {
  const type = forgedType(String(current.object), String(current.status))
  switch (type) {
    case 'checkout.session.completed':
      return { type, object: { ...current, status: 'complete', payment_status: 'paid' } }
    case 'customer.subscription.deleted':
      return { type, object: { ...current, status: 'canceled' } }
    case 'customer.subscription.updated':
      return { type, object: { ...current, status: 'active' } }
    case 'invoice.payment_failed':
      return { type, object: { ...current, status: 'open', paid: false, attempt_count: Number(current.attempt_count ?? 0) + 1 } }
    case 'invoice.paid':
      return { type, object: { ...current, status: 'paid', paid: true } }
    default:
      return { type, object: { ...current, status: 'succeeded' } }
  }
}

/** The latest sent event whose type starts with `aim` (any sent event when none does). */
export function latestAimed(sent: readonly SentEvent[], aim: string): SentEvent | undefined {
  for (let i = sent.length - 1; i >= 0; i--) if (sent[i]?.type.startsWith(aim)) return sent[i]
  return sent[sent.length - 1]
}

/** The latest checkout session the provider holds unpaid (one a customer, or the attacker, opened). */
function unpaidSession(sim: Simulator): Json | undefined {
  try {
    const all = sim.service.engine.resource('checkout.session').list({ account: sim.platform.id, mode: 'test' }) as Json[]
    return all.filter((s) => s.payment_status !== 'paid').at(-1)
  } catch {
    return undefined
  }
}

/**
 * The event an attacker forges about: the latest aimed one whose object a forgery can still lie
 * about. Claiming a paid checkout session paid tells a shop nothing new, so the attacker passes
 * over paid sessions for one that is not: an earlier aimed one, else the latest session the
 * provider holds unpaid (the attacker opens a checkout on the shop and forges its completion),
 * else the latest aimed event as it is.
 *
 * @example
 * const template = forgeryTarget(sim, sent, 'checkout.session.')
 */
export function forgeryTarget(sim: Simulator, sent: readonly SentEvent[], aim: string): SentEvent | undefined {
  const latest = latestAimed(sent, aim)
  const isSession = (e: SentEvent | undefined) => e?.type.startsWith('checkout.session.') === true
  for (let i = sent.length - 1; i >= 0; i--) {
    const e = sent[i]
    if (e === undefined || !e.type.startsWith(aim)) continue
    if (!isSession(e)) return e
    const object = (e.body.data as { object?: Json } | undefined)?.object ?? {}
    if (currentObject(sim, object).payment_status !== 'paid') return e
  }
  const open = isSession(latest) || aim.startsWith('checkout.') ? unpaidSession(sim) : undefined
  if (open === undefined) return latest
  const body = latest?.body ?? { object: 'event', livemode: false, pending_webhooks: 1, request: { id: null } }
  return { id: '', type: 'checkout.session.completed', objectId: String(open.id), body: { ...body, data: { object: open } } }
}

/** A forged delivery: the body sent, the header it carries and what the trace says of it. */
export interface ForgedDelivery {
  readonly event: string
  readonly type: string
  readonly object: string
  readonly request: Request
}

/**
 * The attacker's request about the object of `template`: a new event id claiming the opposite of
 * the provider's state, signed with a secret of its own (`wrong_secret`), carrying a genuine
 * signature of other bytes (`altered_body`: the template's own body, signed by the provider, then
 * tampered with), or unsigned.
 *
 * @example
 * const forged = forgeFlowDelivery(sim, url, secrets, template, 'altered_body', 1)
 */
export function forgeFlowDelivery(
  sim: Simulator,
  url: string,
  secrets: readonly string[],
  template: SentEvent,
  forgery: FlowForgery,
  n: number,
): ForgedDelivery {
  const original = (template.body.data as { object?: Json } | undefined)?.object ?? {}
  const { type, object } = claim(currentObject(sim, original))
  const event = `evt_forged${n}`
  const t = Math.floor(sim.clock.now / 1000)
  const body = JSON.stringify({ ...template.body, id: event, type, created: t, data: { object } }, null, 2)
  const names = headerNames(sim.service.kernel.prefix)
  const headers: Record<string, string> = { 'Content-Type': 'application/json; charset=utf-8' }
  if (forgery === 'wrong_secret') headers[names.signature] = signatureHeader(body, [`whsec_forged${n}`], t, { test: true })
  if (forgery === 'altered_body')
    headers[names.signature] = signatureHeader(JSON.stringify(template.body, null, 2), [...secrets].reverse(), t, { test: true })
  return { event, type, object: String(object.id), request: new Request(url, { method: 'POST', headers, body }) }
}

/**
 * Sends a forged delivery to the app (through the same receiver as the genuine ones, so whatever
 * it records while handling it is caused by it), between `harness.forging` and `harness.forged`.
 *
 * @example
 * await sendForged(sim, handler, forged, 'wrong_secret')
 */
export async function sendForged(
  sim: Simulator,
  handler: (request: Request) => Promise<Response>,
  forged: ForgedDelivery,
  forgery: FlowForgery,
): Promise<string> {
  // Opens the window in which whatever the app records is caused by the forgery.
  sim.service.kernel.trace.append('harness.forging', { event: forged.event })
  // An app on a port answers in real time, as it does the provider's deliveries (its forwarder
  // bounds the wait): driving the virtual clock meanwhile would give up before its answer, and the
  // app's state would be read after the run had moved on.
  const r = receiverOnWallClock(sim)
    ? await handler(forged.request).then(
        (value): Driven<Response> => ({ state: 'ok', value }),
        (error: unknown): Driven<Response> => ({ state: 'error', error }),
      )
    : await drive(sim, handler(forged.request), FORGE_BUDGET_MS)
  const status = r.state === 'ok' && r.value instanceof Response ? r.value.status : null
  const outcome = status === null ? (r.state === 'hung' ? 'timeout' : 'error') : status < 300 ? 'accepted' : 'refused'
  sim.service.kernel.trace.append('harness.forged', {
    forgery,
    event: forged.event,
    type: forged.type,
    object: forged.object,
    outcome,
    status,
  })
  return `${forged.type} about ${forged.object}: ${outcome}${status === null ? '' : ` (${status})`}`
}

/** What an unverified delivery claims: its event, its object and the state it says the object is in. */
export interface Claim {
  readonly event: string
  readonly object: string
  /** The object's state as the subject reads it (`stateOf` of the delivered object: its status by default). */
  readonly status: unknown
}

/**
 * Reads the app's status of a claim's object around its handling, and traces
 * `harness.forged.adopted` when it turned into the claimed status while the provider's is another:
 * the app wrote what an unverified delivery (a forgery, an old replay) said. A reader that answers
 * at once is not awaited (no microtask turn); a database query is.
 *
 * @example
 * const res = await watchAdoption(sim, (id) => copy[id]?.status, claim, () => app.handler(request), statusOfObject)
 */
export async function watchAdoption<T>(
  sim: Simulator,
  statusOf: (objectId: string) => unknown,
  claim: Claim,
  handle: () => Promise<T>,
  stateOf: (object: Json) => unknown,
): Promise<T> {
  const read = statusOf(claim.object)
  const before = read instanceof Promise ? await read : read
  const result = await handle()
  const again = statusOf(claim.object)
  const after = again instanceof Promise ? await again : again
  const held = providerObject(sim, claim.object)
  const provider = held === undefined ? undefined : stateOf(held)
  if (after === claim.status && before !== claim.status && provider !== claim.status)
    sim.service.kernel.trace.append('harness.forged.adopted', {
      event: claim.event,
      object: claim.object,
      claimed: String(claim.status),
      before: before === undefined || before === null ? null : String(before),
      provider: provider === undefined ? null : String(provider),
    })
  return result
}
