import { SignatureVerificationError, verifySignature } from '#domain/delivery/signature.js'
import { headerNames } from '../../index.js'
import { sleep, type WebhookReceiver, type WebhookReceiverEnv, type WebhookReceiverFactory } from '../subjects.js'

/** The mistakes a webhook receiver can make; the correct receiver makes none. */
export interface WebhookReceiverFlaws {
  /** Processes every delivery, duplicates included. */
  noDedup?: boolean
  /** Keeps the state of the event with the latest `created` (whole seconds, ties by arrival). */
  trustsCreated?: boolean
  /** Verifies `JSON.stringify(JSON.parse(body))` instead of the raw body. */
  reserialisesBody?: boolean
  /** Verifies with tolerance 0: any old signed delivery, replayed, passes. */
  ignoresTolerance?: boolean
  /** Does its slow work before answering, so the service times out. */
  slowWorkBeforeAnswer?: boolean
  /** Does not verify signatures at all. */
  noVerification?: boolean
  /** Remembers only the last `n` event ids, so a late redelivery of an older one is processed again. */
  dedupMemory?: number
  /** Forgets an event id `ms` after it was seen (a TTL cache), so a redelivery days later is processed again. */
  dedupTtlMs?: number
  /** Performs the side effect (and updates its state) before it verifies the signature. */
  effectBeforeVerification?: boolean
}

/** How long the receiver's real work takes (virtual ms): longer than the delivery timeout. */
export const RECEIVER_WORK_MS = 15_000

/** Order of payment intent states: a later state never goes back to an earlier one. */
const RANK: Record<string, number> = { requires_payment_method: 0, processing: 1, succeeded: 2, canceled: 2 }

interface Incoming {
  id: string
  type: string
  created: number
  data: { object: { id: string; status: string } }
}

/**
 * A webhook receiver: verifies the signature on the raw body (default tolerance), answers 2xx
 * before the slow work, processes each event id once, and keeps an object's state only when the
 * event's object state is further along than the one held (never by `created`). `flaws` switches
 * one mistake on.
 *
 * @example
 * const subject = referenceWebhookReceiver(env)
 * await subject.handler(request) // 200; the work runs RECEIVER_WORK_MS later on the clock
 */
export function makeWebhookReceiver(flaws: WebhookReceiverFlaws = {}): WebhookReceiverFactory {
  return (env) => receiver(env, flaws)
}

function receiver(env: WebhookReceiverEnv, flaws: WebhookReceiverFlaws): WebhookReceiver {
  // Event id -> when it was seen (a Map keeps insertion order: the oldest first).
  const seen = new Map<string, number>()
  const remembered = (id: string): boolean => {
    const at = seen.get(id)
    if (at === undefined) return false
    if (flaws.dedupTtlMs !== undefined && env.clock.now - at > flaws.dedupTtlMs) {
      seen.delete(id)
      return false
    }
    return true
  }
  const remember = (id: string): void => {
    seen.set(id, env.clock.now)
    if (flaws.dedupMemory !== undefined && seen.size > flaws.dedupMemory) seen.delete(seen.keys().next().value as string)
  }
  const state: Record<string, string> = Object.create(null)
  const createdOf: Record<string, number> = Object.create(null)

  function work(event: Incoming): void {
    const obj = event.data.object
    env.effects.record(event.id, `${event.type}:${obj.id}`)
    const current = state[obj.id]
    if (flaws.trustsCreated) {
      if (current === undefined || event.created >= (createdOf[obj.id] ?? 0)) {
        state[obj.id] = obj.status
        createdOf[obj.id] = event.created
      }
      return
    }
    if (current === undefined || (RANK[obj.status] ?? 0) > (RANK[current] ?? 0)) state[obj.id] = obj.status
  }

  return {
    state: () => state,
    async handler(req) {
      const raw = await req.text()
      if (flaws.effectBeforeVerification) {
        const early = JSON.parse(raw) as Incoming
        if (remembered(early.id)) return new Response('duplicate', { status: 200 })
        work(early)
        try {
          verifySignature(raw, req.headers.get(headerNames(env.prefix).signature), env.secrets(), { now: env.clock.now })
        } catch (error) {
          if (error instanceof SignatureVerificationError) return new Response(error.message, { status: 400 })
          throw error
        }
        remember(early.id)
        return new Response('done', { status: 200 })
      }
      if (!flaws.noVerification) {
        let signed = raw
        if (flaws.reserialisesBody) signed = JSON.stringify(JSON.parse(raw))
        try {
          verifySignature(signed, req.headers.get(headerNames(env.prefix).signature), env.secrets(), {
            now: env.clock.now,
            tolerance: flaws.ignoresTolerance ? 0 : 300,
          })
        } catch (error) {
          if (error instanceof SignatureVerificationError) return new Response(error.message, { status: 400 })
          throw error
        }
      }
      const event = JSON.parse(raw) as Incoming
      if (!flaws.noDedup) {
        if (remembered(event.id)) return new Response('duplicate', { status: 200 })
        remember(event.id)
      }
      if (flaws.slowWorkBeforeAnswer) {
        await sleep(env.clock, RECEIVER_WORK_MS)
        work(event)
        return new Response('done', { status: 200 })
      }
      env.clock.setTimeout(() => work(event), RECEIVER_WORK_MS)
      return new Response('queued', { status: 202 })
    },
  }
}

/**
 * The correct webhook receiver.
 *
 * @example
 * await checkWebhookHandler(referenceWebhookReceiver, { numRuns: 50 }) // { ok: true, ... }
 */
export const referenceWebhookReceiver: WebhookReceiverFactory = makeWebhookReceiver()
