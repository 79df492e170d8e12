import { SignatureVerificationError, verifySignature } from '#domain/index.js'
import { headerNames } from '#kernel/index.js'
import { refuseArgument } from '../refuse-argument.js'
import type { WebhookReceiver } from '../subjects.js'
import type { ThinEventReceiverEnv, ThinEventReceiverFactory } from './thin-race-run.js'

interface ThinEvent {
  id: string
  type: string
  related_object?: { id: string; type: string; url: string }
}

function thinReceiver(
  api: string,
  env: ThinEventReceiverEnv,
  decide: (env: ThinEventReceiverEnv, event: ThinEvent) => Promise<string>,
): WebhookReceiver {
  refuseArgument(api, 'env', env, 'object')
  refuseArgument(api, 'env.fetch', env.fetch, 'function')
  const { store } = env
  return {
    async state() {
      const rows: Record<string, string> = {}
      for (const key of await store.keys('meter:')) rows[key.slice('meter:'.length)] = String(await store.get(key))
      return rows
    },
    async handler(req) {
      const raw = await req.text()
      try {
        verifySignature(raw, req.headers.get(headerNames(env.prefix).signature), env.secrets(), { now: env.clock.now })
      } catch (error) {
        if (error instanceof SignatureVerificationError) return new Response(error.message, { status: 400 })
        throw error
      }
      const event = JSON.parse(raw) as ThinEvent
      const related = event.related_object
      if (related === undefined) return new Response('nothing to fetch')
      const status = await decide(env, event)
      env.effects.record(event.id, `${related.id}:${status}`)
      await store.set(`meter:${related.id}`, status)
      return new Response('ok')
    },
  }
}

/**
 * The correct thin-event receiver: fetches the object the event names (`related_object.url`) and
 * acts on what it gets, the object as it is now, which may have changed since the event.
 *
 * @example
 * const report = await runThinRace(program, referenceThinEventReceiver) // no violations
 */
export const referenceThinEventReceiver: ThinEventReceiverFactory = (env) =>
  thinReceiver('referenceThinEventReceiver', env, async (e, event) => {
    const res = await e.fetch(`${e.baseUrl}${event.related_object?.url ?? ''}`, {
      headers: { Authorization: `Bearer ${e.secretKey}` },
    })
    return String(((await res.json()) as { status?: string }).status)
  })

/** The status an event's type seems to announce, to a receiver that does not fetch. */
const ANNOUNCED: Readonly<Record<string, string>> = {
  'v2.payments.off_session_payment.created': 'pending',
  'v2.payments.off_session_payment.attempt_started': 'processing',
  'v2.payments.off_session_payment.attempt_failed': 'pending_retry',
  'v2.payments.off_session_payment.succeeded': 'succeeded',
  'v2.payments.off_session_payment.canceled': 'canceled',
}

/**
 * A thin-event receiver with the classic mistake: it assumes the object is as it was when the event
 * happened instead of fetching it (a meter error report means an active meter; an off-session
 * payment's `created` a pending payment, `succeeded` a succeeded one), so a meter deactivated, or a
 * payment that moved on, before the delivery is acted on in its old state.
 *
 * @example
 * const report = await runThinRace(program, staleThinEventReceiver) // thin.fetched_state
 */
export const staleThinEventReceiver: ThinEventReceiverFactory = (env) =>
  thinReceiver('staleThinEventReceiver', env, async (_, event) => ANNOUNCED[event.type] ?? 'active')
