import { signatureHeader } from '#domain/delivery/signature.js'
import type { StoredEvent } from '#domain/events/event.js'
import type { Simulator } from '../../simulator/create-simulator.js'
import type { WebhookSubject } from '../subjects.js'

/** A delivery slower than this (virtual ms) has timed out, as the service counts it. */
export const CHANNEL_TIMEOUT_MS = 10_000
/** Delays between attempts; after the last the event is Failed. */
export const CHANNEL_RETRIES_MS = [60_000, 300_000, 1_800_000, 7_200_000] as const
/** Age from which a replayed delivery is outside the default 5-minute signature tolerance. */
export const REPLAY_MIN_AGE_MS = 6 * 60_000
const DAY = 86_400_000

interface Sent {
  readonly event: string
  readonly body: string
  readonly signature: string
  readonly at: number
}

/**
 * The harness's delivery path to a user's webhook handler: events are signed and POSTed as the
 * service does (pretty-printed JSON, `t=` and one `v1=` per active secret, a fake `v0=`), under the
 * fault controller's delivery decisions (duplicates, reordering, delays, transport failures, slow
 * network) and the run's receiver state, retried on failure until the retry window is spent. It
 * also plays the attacker who replays an old signed delivery. Every attempt is traced as
 * `harness.delivery`.
 *
 * @example
 * const channel = createDeliveryChannel(sim, subject, 'https://hooks.example.test/')
 * channel.send(event)
 */
export interface DeliveryChannel {
  send(event: StoredEvent): void
  setDown(down: boolean): void
  roll(): void
  secrets(): readonly string[]
  /** Deliveries (and receiver calls) still running or scheduled. */
  readonly pending: number
}

export function createDeliveryChannel(sim: Simulator, subject: () => WebhookSubject, url: string): DeliveryChannel {
  const { clock } = sim
  const trace = sim.service.kernel.trace
  const secretRng = sim.service.kernel.rng.stream('harness.secrets')
  const keys: { secret: string; until: number }[] = [{ secret: newSecret(), until: Number.POSITIVE_INFINITY }]
  const sent: Sent[] = []
  let down = false
  let pending = 0

  function newSecret(): string {
    let hex = ''
    for (let i = 0; i < 32; i++) hex += secretRng.int(16).toString(16)
    return `whsec_${hex}`
  }

  function active(): string[] {
    return keys.filter((k) => k.until > clock.now).map((k) => k.secret)
  }

  function later(ms: number, fn: () => Promise<void>): void {
    pending++
    clock.setTimeout(() => {
      void fn().finally(() => {
        pending--
      })
    }, ms)
  }

  /** Calls the handler with a time limit on the virtual clock. */
  async function post(body: string, signature: string, slowMs: number): Promise<{ status: number | null; outcome: string }> {
    const request = new Request(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json; charset=utf-8', [`${sim.service.kernel.prefix}-Signature`]: signature },
      body,
    })
    let timer: ReturnType<typeof clock.setTimeout> | undefined
    const timeout = new Promise<{ status: null; outcome: string }>((resolve) => {
      timer = clock.setTimeout(() => resolve({ status: null, outcome: 'timeout' }), CHANNEL_TIMEOUT_MS)
    })
    const answer = (async () => {
      if (slowMs > 0) await new Promise<void>((r) => clock.setTimeout(() => r(), slowMs))
      try {
        const res = await subject().handler(request)
        await res.text()
        return { status: res.status, outcome: res.status >= 200 && res.status < 300 ? 'delivered' : 'http_error' }
      } catch {
        return { status: 500, outcome: 'http_error' }
      }
    })()
    const result = await Promise.race([answer, timeout])
    if (timer !== undefined) clock.clearTimeout(timer)
    return result
  }

  async function attempt(
    event: StoredEvent,
    body: string,
    n: number,
    fail: boolean,
    slowMs: number,
    duplicate: boolean,
  ): Promise<void> {
    const start = clock.now
    const base = { event: event.id, object: event.objectId ?? null, attempt: n, duplicate, replay: false }
    let outcome: { status: number | null; outcome: string }
    if (down || fail) outcome = { status: null, outcome: 'connect_error' }
    else {
      const signature = signatureHeader(body, active(), Math.floor(start / 1000), { test: true })
      sent.push({ event: event.id, body, signature, at: start })
      outcome = await post(body, signature, slowMs)
    }
    trace.append('harness.delivery', { ...base, ...outcome, duration: clock.now - start })
    if (outcome.outcome === 'delivered' || duplicate) return
    const retry = CHANNEL_RETRIES_MS[n - 1]
    if (retry === undefined) {
      trace.append('harness.delivery.exhausted', { event: event.id, attempts: n })
      return
    }
    const next = sim.faults.delivery({ event: event.id, attempt: n + 1 })
    later(retry + next.delayMs, () => attempt(event, body, n + 1, next.fail, next.slowMs, false))
  }

  sim.faults.on('replay_delivery', () => {
    // The attacker takes the oldest delivery it captured and waits until its signature is stale.
    const old = sent[0]
    if (old === undefined) return false
    later(Math.max(0, old.at + REPLAY_MIN_AGE_MS - clock.now), async () => {
      const start = clock.now
      const outcome = await post(old.body, old.signature, 0)
      trace.append('harness.delivery', {
        event: old.event,
        attempt: 0,
        duplicate: false,
        replay: true,
        age: start - old.at,
        ...outcome,
        duration: clock.now - start,
      })
    })
    return true
  })
  sim.faults.on('receiver_down', () => {
    down = true
    return true
  })
  sim.faults.on('receiver_up', () => {
    down = false
    return true
  })

  return {
    send(event) {
      // Pretty-printed, as the provider sends it: a re-serialised body differs from the signed one.
      const body = `${JSON.stringify(event.body, null, 2)}\n`
      const d = sim.faults.delivery({ event: event.id, attempt: 1 })
      later(d.delayMs, () => attempt(event, body, 1, d.fail, d.slowMs, false))
      if (d.duplicate) later(d.delayMs + 1_000, () => attempt(event, body, 1, false, 0, true))
    },
    setDown(value) {
      down = value
      trace.append('harness.receiver', { down: value })
    },
    roll() {
      const first = keys[keys.length - 1]
      if (first) first.until = Math.min(first.until, clock.now + DAY)
      keys.push({ secret: newSecret(), until: Number.POSITIVE_INFINITY })
      trace.append('harness.secret_rolled', { active: active().length })
    },
    secrets: active,
    get pending() {
      return pending
    },
  }
}
