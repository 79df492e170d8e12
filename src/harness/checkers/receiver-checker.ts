import { DELIVERY_TIMEOUT_MS } from '#domain/delivery/delivery.js'
import type { TraceEntry } from '#kernel/trace.js'
import { traceChecker } from './checker.js'
import { type Violation, violation } from './violation.js'

const str = (v: unknown) => String(v)

/**
 * A timed-out attempt is the receiver's fault only when the network (fault `receiver_slow`) left
 * it at least this long to answer: half the delivery time-out.
 */
export const RECEIVER_ANSWER_BUDGET_MS = DELIVERY_TIMEOUT_MS / 2

/**
 * Webhook receiver checker over the service's own delivery trace (`delivery.attempt` and the
 * attacker's `delivery.replay`, from `src/domain/delivery`) and the harness's records: side effects
 * unique per event id (`harness.effect`), a final state equal to the latest delivered state of each
 * object (`harness.state`, so no regression to an older state whatever the order), genuine signed
 * deliveries accepted (the signature verified on the raw body) and acknowledged with a 2xx within the
 * retry window whenever the receiver was reachable (`receivers.acknowledges`), replayed old deliveries refused,
 * answers within the delivery timeout (slow work after the 2xx; an attempt whose network delay
 * left the receiver less than `RECEIVER_ANSWER_BUDGET_MS` is not its fault), every acknowledged
 * event processed (or skipped on purpose, `harness.skipped`), and forged deliveries
 * (`harness.forged`) without any effect or state. `harness.emitted` maps events to the objects they carry.
 *
 * @example
 * checkReceiver(sim.trace.entries())
 */
export function checkReceiver(entries: readonly TraceEntry[]): Violation[] {
  const out: Violation[] = []
  const effects = new Map<string, TraceEntry[]>()
  const deliveries = new Map<string, TraceEntry[]>()
  const byObject = new Map<string, TraceEntry[]>()
  const objectOf = new Map<string, string>()
  // Genuine (non-replay) attempts per event, to name a delivery the receiver never acknowledged.
  const genuine = new Map<string, { attempts: TraceEntry[]; delivered: boolean; ended?: TraceEntry }>()
  // Network delay (fault `receiver_slow`) per event and attempt number.
  const networkDelay = new Map<string, number>()
  const forged = new Map<string, TraceEntry>()
  const forgedObjects = new Map<string, TraceEntry>()
  const skipped = new Set<string>()
  const automaticSeen = new Map<string, number>()
  for (const e of entries) {
    if (e.kind === 'harness.emitted') objectOf.set(str(e.data.event), str(e.data.object))
    else if (e.kind === 'fault') {
      if (e.data.kind === 'receiver_slow' && e.data.event !== undefined) {
        networkDelay.set(`${str(e.data.event)}|${str(e.data.attempt)}`, Number(e.data.delay ?? 0))
      }
    } else if (e.kind === 'harness.forged') {
      forged.set(e.data.event, e)
      forgedObjects.set(e.data.object, e)
    } else if (e.kind === 'harness.skipped') skipped.add(e.data.event)
    else if (e.kind === 'harness.effect') {
      const list = effects.get(str(e.data.event)) ?? []
      list.push(e)
      effects.set(str(e.data.event), list)
    } else if (e.kind === 'delivery.attempt' || e.kind === 'delivery.replay') {
      const replay = e.kind === 'delivery.replay'
      if (replay && e.data.outcome === 'delivered') {
        out.push(
          violation(
            'receivers.replay_refused',
            `a replayed delivery of ${str(e.data.event)} (${str(e.data.age)} ms old) was accepted`,
            [e],
          ),
        )
      }
      if (!replay) {
        const g = genuine.get(str(e.data.event)) ?? { attempts: [], delivered: false }
        g.attempts.push(e)
        if (e.data.outcome === 'delivered') g.delivered = true
        genuine.set(str(e.data.event), g)
      }
      if (!replay && e.data.outcome === 'http_error' && Number(e.data.status) >= 400 && Number(e.data.status) < 500) {
        out.push(
          violation(
            'receivers.raw_body',
            `a genuine signed delivery of ${str(e.data.event)} was refused with ${str(e.data.status)}`,
            [e],
          ),
        )
      }
      // The fault hook numbers automatic attempts (first + retries) only.
      let delay = 0
      if (!replay && (e.data.trigger === 'automatic' || e.data.trigger === 'retry')) {
        const n = (automaticSeen.get(str(e.data.event)) ?? 0) + 1
        automaticSeen.set(str(e.data.event), n)
        delay = networkDelay.get(`${str(e.data.event)}|${n}`) ?? 0
      }
      if (e.data.outcome === 'timeout' && DELIVERY_TIMEOUT_MS - delay >= RECEIVER_ANSWER_BUDGET_MS) {
        out.push(
          violation('receivers.answer_quickly', `the receiver did not answer ${str(e.data.event)} within the delivery timeout`, [
            e,
          ]),
        )
      }
      if (!replay && e.data.outcome === 'delivered') {
        const list = deliveries.get(str(e.data.event)) ?? []
        list.push(e)
        deliveries.set(str(e.data.event), list)
        const object = objectOf.get(str(e.data.event))
        if (object !== undefined) {
          const objectList = byObject.get(object) ?? []
          objectList.push(e)
          byObject.set(object, objectList)
        }
      }
    } else if (e.kind === 'delivery.exhausted' || e.kind === 'delivery.cancelled') {
      const g = genuine.get(str(e.data.event))
      if (g !== undefined && g.ended === undefined) g.ended = e
    } else if (e.kind === 'harness.state' && forgedObjects.has(str(e.data.object))) {
      if (e.data.actual !== null && e.data.actual !== undefined) {
        const f = forgedObjects.get(str(e.data.object)) as TraceEntry
        out.push(
          violation(
            'receivers.forgery_ignored',
            `a forged delivery (${str(f.data.forgery)}) left object ${str(e.data.object)} in state '${str(e.data.actual)}'`,
            [f, e],
          ),
        )
      }
    } else if (e.kind === 'harness.state' && e.data.expected !== e.data.actual) {
      const delivered = byObject.get(str(e.data.object)) ?? []
      out.push(
        violation(
          'receivers.order',
          `object ${str(e.data.object)} ended '${str(e.data.actual)}', expected '${str(e.data.expected)}' (its latest state)`,
          [...delivered.slice(-2), e],
        ),
      )
    }
  }
  for (const [event, list] of effects) {
    const f = forged.get(event)
    if (f !== undefined) {
      out.push(
        violation(
          'receivers.forgery_ignored',
          `a forged delivery (${str(f.data.forgery)}, answered ${str(f.data.status ?? f.data.outcome)}) caused ${list.length} side effect(s)`,
          [f, ...list],
        ),
      )
      continue
    }
    if (list.length > 1) {
      out.push(
        violation('receivers.effects_once', `event ${event} caused ${list.length} side effects`, [
          ...(deliveries.get(event) ?? []).slice(0, 2),
          ...list,
        ]),
      )
    }
  }
  for (const [event, list] of deliveries) {
    if (!effects.has(event) && !skipped.has(event)) {
      out.push(violation('receivers.processed', `event ${event} was acknowledged but never processed`, list.slice(0, 1)))
    }
  }
  // The receiver had its chance: it answered (no transport fault, no receiver down on that attempt)
  // yet no attempt of the whole retry window got a 2xx. Attempts a fault or a down receiver turned
  // into transport failures do not count as answers; a delivery still pending is the delivery
  // checker's finding, a cancelled one (destination disabled) no one's.
  for (const [event, g] of genuine) {
    if (g.delivered || g.ended?.kind !== 'delivery.exhausted') continue
    const answered = g.attempts.filter((a) => a.data.outcome === 'http_error')
    if (answered.length === 0) continue
    const statuses = [...new Set(answered.map((a) => str(a.data.status)))].join(', ')
    out.push(
      violation(
        'receivers.acknowledges',
        `genuine delivery of ${event} was never acknowledged with a 2xx in the retry window (${answered.length} of ${g.attempts.length} attempts answered ${statuses})`,
        [...answered.slice(0, 2), g.ended],
      ),
    )
  }
  return out
}

/**
 * The receiver behaviour checker as a `Checker` (scenario name `receivers`).
 *
 * @example
 * await receiverChecker.check({ entries: sim.trace.entries(), requests: [], deliveries: [] })
 */
export const receiverChecker = traceChecker(
  'receivers',
  checkReceiver,
  'side effects once per event, latest state kept, genuine deliveries acknowledged, replays and forgeries without effect',
)
