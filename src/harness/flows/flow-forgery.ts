import { signatureHeader } from '#domain/index.js'
import { headerNames } from '#kernel/index.js'
import type { Simulator } from '#simulator/index.js'
import { drive } from '../run/drive.js'
import type { FlowForgery } from './flow-program.js'

type Json = Record<string, unknown>

/** An event the destination was sent in a flow, as the forger and the redeliveries pick from. */
export interface SentEvent {
  readonly id: string
  readonly type: string
  readonly objectId: string
  readonly body: Readonly<Json>
}

/** How long the forger waits for the app's answer (virtual ms). */
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
 * What the attacker claims about an object: the opposite of what the provider holds now, so an app
 * acting on it does what no genuine event asked (a session fulfilled unpaid, access revoked from a
 * paying customer, a paid invoice dunned).
 */
function claim(current: Json): { type: string; object: Json } {
  switch (String(current.object)) {
    case 'checkout.session':
      return { type: 'checkout.session.completed', object: { ...current, status: 'complete', payment_status: 'paid' } }
    case 'subscription':
      return current.status === 'active' || current.status === 'trialing'
        ? { type: 'customer.subscription.deleted', object: { ...current, status: 'canceled' } }
        : { type: 'customer.subscription.updated', object: { ...current, status: 'active' } }
    case 'invoice':
      return current.status === 'paid'
        ? {
            type: 'invoice.payment_failed',
            object: { ...current, status: 'open', paid: false, attempt_count: Number(current.attempt_count ?? 0) + 1 },
          }
        : { type: 'invoice.paid', object: { ...current, status: 'paid', paid: true } }
    default:
      return { type: 'payment_intent.succeeded', object: { ...current, status: 'succeeded' } }
  }
}

/** The latest sent event whose type starts with `aim` (any sent event when none does). */
export function latestAimed(sent: readonly SentEvent[], aim: string): SentEvent | undefined {
  for (let i = sent.length - 1; i >= 0; i--) if (sent[i]?.type.startsWith(aim)) return sent[i]
  return sent[sent.length - 1]
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
  const r = await drive(sim, handler(forged.request), FORGE_BUDGET_MS)
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
