import { SignatureVerificationError, verifySignature } from '#domain/index.js'
import { headerNames } from '#kernel/index.js'
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
  /** Keeps the processed event ids in memory only, so after a restart (a redeploy) a duplicate is processed again. */
  dedupInMemory?: boolean
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
 * event's object state is further along than the one held (never by `created`). Processed ids and
 * the object table live in `env.store`, so a restart loses nothing. `flaws` switches one mistake on.
 *
 * @example
 * const subject = referenceWebhookReceiver(env)
 * await subject.handler(request) // 200; the work runs RECEIVER_WORK_MS later on the clock
 */
export function makeWebhookReceiver(flaws: WebhookReceiverFlaws = {}): WebhookReceiverFactory {
  return (env) => receiver(env, flaws)
}

/** A row of the receiver's object table: the status held and the `created` of the event it came from. */
type Row = { status: string; created: number }

/**
 * The event ids processed so far. They live in the durable store (the app's database), as they
 * must to survive a redeploy; the flawed memories keep them in a Map (insertion order: the oldest first).
 */
class ProcessedEvents {
  private readonly memory: boolean
  private readonly seen = new Map<string, number>()

  constructor(
    private readonly env: WebhookReceiverEnv,
    private readonly flaws: WebhookReceiverFlaws,
  ) {
    this.memory = flaws.dedupMemory !== undefined || flaws.dedupInMemory === true
  }

  private expired(at: number | undefined): boolean {
    return at === undefined || (this.flaws.dedupTtlMs !== undefined && this.env.clock.now - at > this.flaws.dedupTtlMs)
  }

  async remembered(id: string): Promise<boolean> {
    const at = this.memory ? this.seen.get(id) : ((await this.env.store.get(`seen:${id}`)) as number | undefined)
    return !this.expired(at)
  }

  async remember(id: string): Promise<void> {
    if (!this.memory) return this.env.store.set(`seen:${id}`, this.env.clock.now)
    this.seen.delete(id)
    this.seen.set(id, this.env.clock.now)
    const limit = this.flaws.dedupMemory
    if (limit !== undefined && this.seen.size > limit) this.seen.delete(this.seen.keys().next().value as string)
  }

  /** Remembers `id` unless it is remembered already; `true` the first time (atomic in the store). */
  async claim(id: string): Promise<boolean> {
    if (this.memory) {
      if (await this.remembered(id)) return false
      await this.remember(id)
      return true
    }
    const { clock, store } = this.env
    const before = await store.update(`seen:${id}`, (at) => (this.expired(at as number | undefined) ? clock.now : at))
    return this.expired(before as number | undefined)
  }
}

/** The real work for one event: its side effect, then one conditional update of the object's row. */
function work(env: WebhookReceiverEnv, flaws: WebhookReceiverFlaws, event: Incoming): Promise<unknown> {
  const obj = event.data.object
  env.effects.record(event.id, `${event.type}:${obj.id}`)
  const next: Row = { status: obj.status, created: event.created }
  // One conditional update (an `UPDATE ... WHERE`): never back to an earlier state.
  return env.store.update(`state:${obj.id}`, (held) => {
    const row = held as Row | undefined
    if (row === undefined) return next
    if (flaws.trustsCreated) return event.created >= row.created ? next : row
    return (RANK[obj.status] ?? 0) > (RANK[row.status] ?? 0) ? next : row
  })
}

/** The object table: each object's status held. */
async function objectStates(env: WebhookReceiverEnv): Promise<Record<string, string>> {
  const out: Record<string, string> = Object.create(null)
  for (const key of await env.store.keys('state:')) {
    const row = (await env.store.get(key)) as Row | undefined
    if (row !== undefined) out[key.slice('state:'.length)] = row.status
  }
  return out
}

/** Verifies the delivery's signature over `signed`: undefined when it holds, else the 400 to answer. */
function refusal(env: WebhookReceiverEnv, req: Request, signed: string, tolerance?: number): Response | undefined {
  try {
    const header = req.headers.get(headerNames(env.prefix).signature)
    verifySignature(
      signed,
      header,
      env.secrets(),
      tolerance === undefined ? { now: env.clock.now } : { now: env.clock.now, tolerance },
    )
    return undefined
  } catch (error) {
    if (error instanceof SignatureVerificationError) return new Response(error.message, { status: 400 })
    throw error
  }
}

/** The `effectBeforeVerification` flaw: the work is done first, and only then is the signature checked. */
async function effectFirst(
  env: WebhookReceiverEnv,
  flaws: WebhookReceiverFlaws,
  processed: ProcessedEvents,
  req: Request,
  raw: string,
) {
  const early = JSON.parse(raw) as Incoming
  if (await processed.remembered(early.id)) return new Response('duplicate', { status: 200 })
  await work(env, flaws, early)
  const refused = refusal(env, req, raw)
  if (refused !== undefined) return refused
  await processed.remember(early.id)
  return new Response('done', { status: 200 })
}

function receiver(env: WebhookReceiverEnv, flaws: WebhookReceiverFlaws): WebhookReceiver {
  const processed = new ProcessedEvents(env, flaws)
  return {
    state: () => objectStates(env),
    async handler(req) {
      const raw = await req.text()
      if (flaws.effectBeforeVerification) return effectFirst(env, flaws, processed, req, raw)
      if (!flaws.noVerification) {
        const signed = flaws.reserialisesBody ? JSON.stringify(JSON.parse(raw)) : raw
        const refused = refusal(env, req, signed, flaws.ignoresTolerance ? 0 : 300)
        if (refused !== undefined) return refused
      }
      const event = JSON.parse(raw) as Incoming
      if (!flaws.noDedup && !(await processed.claim(event.id))) return new Response('duplicate', { status: 200 })
      if (flaws.slowWorkBeforeAnswer) {
        await sleep(env.clock, RECEIVER_WORK_MS)
        await work(env, flaws, event)
        return new Response('done', { status: 200 })
      }
      // Answer first, work later: the service's delivery timeout never waits on the real work.
      env.clock.setTimeout(() => void work(env, flaws, event), RECEIVER_WORK_MS)
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
