import { signatureHeader } from '#domain/index.js'
import { headerNames } from '#kernel/index.js'
import { drive } from './drive.js'
import type { Forgery } from './program.js'
import type { RunState } from './run-state.js'
import { HARNESS_RECEIVER_URL } from './setup.js'

/** URL of the second endpoint whose secret an `other_endpoint` forgery uses (nothing is routed to it). */
const OTHER_ENDPOINT_URL = 'https://hooks.harness.test/other'
/** How long the forger waits for the receiver's answer (virtual ms). */
const FORGE_BUDGET_MS = 60_000

/** A snapshot event body for a forged object, as the service would write it. */
function forgedBody(event: string, object: string, now: number, amount: number, status: string): string {
  return JSON.stringify(
    {
      id: event,
      object: 'event',
      created: Math.floor(now / 1000),
      data: { object: { id: object, object: 'payment_intent', amount, currency: 'usd', status } },
      livemode: false,
      type: 'payment_intent.succeeded',
    },
    null,
    2,
  )
}

/** The secret of a second endpoint of the same account, made once. */
function otherEndpointSecret(state: RunState): string {
  if (state.otherSecret === undefined) {
    const { sim } = state
    const other = sim.service.destinations.create(
      { account: sim.platform.id, mode: 'test' },
      {
        name: 'another endpoint',
        type: 'webhook_endpoint',
        event_payload: 'snapshot',
        enabled_events: ['charge.refunded'],
        webhook_endpoint: { url: OTHER_ENDPOINT_URL },
      },
    )
    state.otherSecret = sim.admin.signingSecrets(other.id)[0] as string
  }
  return state.otherSecret
}

interface Forged {
  sent: string
  signed: string
  secret: string
  t: number
}

/** What the attacker sends and signs for each kind of forgery. */
function forgeryOf(state: RunState, forgery: Forgery, event: string, object: string, active: readonly string[]): Forged {
  const now = state.sim.clock.now
  const body = (amount: number, status: string) => forgedBody(event, object, now, amount, status)
  const f: Forged = { sent: body(100, 'succeeded'), signed: '', secret: active[0] as string, t: Math.floor(now / 1000) }
  f.signed = f.sent
  const random = () => String(Math.floor(state.clientRng.next() * 1e12))
  switch (forgery) {
    case 'new_id':
      // A genuine-looking signature over other bytes (the attacker's captured header), with a new event id.
      f.signed = f.sent.replace(event, `${event}x`)
      break
    case 'altered_body':
      f.signed = body(1, 'processing')
      break
    case 'wrong_secret':
      f.secret = `whsec_forged${random()}`
      break
    case 'expired_secret':
      f.secret = [...state.seenSecrets].find((s) => !active.includes(s)) ?? `whsec_retired${random()}`
      break
    case 'stale_timestamp':
      f.t -= 600
      break
    case 'other_endpoint':
      f.secret = otherEndpointSecret(state)
      break
  }
  return f
}

/** POSTs the forged request to the subject and says how it was answered. */
async function post(state: RunState, f: Forged): Promise<{ outcome: string; status: number | null }> {
  const { sim, receiver, control } = state
  if (control?.down || receiver === undefined) return { outcome: 'connect_error', status: null }
  const names = headerNames(sim.service.kernel.prefix)
  const header = signatureHeader(f.signed, [f.secret], f.t, { test: true })
  const request = new Request(HARNESS_RECEIVER_URL, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json; charset=utf-8', [names.signature]: header },
    body: f.sent,
  })
  const r = await drive(
    sim,
    Promise.resolve().then(() => receiver.handler(request)),
    FORGE_BUDGET_MS,
  )
  if (r.state === 'ok' && r.value instanceof Response)
    return { outcome: r.value.status < 300 ? 'accepted' : 'refused', status: r.value.status }
  return { outcome: r.state === 'hung' ? 'timeout' : 'error', status: null }
}

/**
 * An attacker POSTs a forged delivery (`forgery`) to the webhook subject: a new event id and a
 * forged object, none of it genuine. The outcome is traced as `harness.forged`.
 *
 * @example
 * await forgeDelivery(state, 'stale_timestamp')
 */
export async function forgeDelivery(state: RunState, forgery: Forgery): Promise<void> {
  if (state.destination === undefined || !state.receiver || !state.control) return
  const n = state.forgedObjects.length + 1
  const object = `pi_forged${n}`
  const event = `evt_forged${n}`
  state.forgedObjects.push(object)
  const active = state.sim.admin.signingSecrets(state.destination)
  for (const s of active) state.seenSecrets.add(s)
  const f = forgeryOf(state, forgery, event, object, active)
  const { outcome, status } = await post(state, f)
  state.sim.service.kernel.trace.append('harness.forged', { forgery, event, object, outcome, status })
}
