import { DELIVERY_TIMEOUT_MS } from '#domain/index.js'
import type { TraceEntry } from '#kernel/index.js'
import { refuseNotEntries } from '../validate-input.js'
import { traceChecker } from './checker.js'
import { type Violation, violation } from './violation.js'

const str = (v: unknown) => String(v)

/**
 * A timed-out attempt is the receiver's fault only when the network (fault `receiver_slow`) left
 * it at least this long to answer: half the delivery time-out.
 */
export const RECEIVER_ANSWER_BUDGET_MS = DELIVERY_TIMEOUT_MS / 2

/** What the checker gathers in one pass over the trace (violations found on the way go to `out`). */
interface Seen {
  readonly out: Violation[]
  readonly effects: Map<string, TraceEntry[]>
  readonly deliveries: Map<string, TraceEntry[]>
  readonly byObject: Map<string, TraceEntry[]>
  readonly objectOf: Map<string, string>
  /** Genuine (non-replay) attempts per event, to name a delivery the receiver never acknowledged. */
  readonly genuine: Map<string, { attempts: TraceEntry[]; delivered: boolean; ended?: TraceEntry }>
  /** Network delay (fault `receiver_slow`) per event and attempt number. */
  readonly networkDelay: Map<string, number>
  readonly forged: Map<string, TraceEntry>
  readonly forgedObjects: Map<string, TraceEntry>
  readonly skipped: Set<string>
  readonly automaticSeen: Map<string, number>
  /** Header prefix of the run's simulator (from `simulator.created`), to name the signature header. */
  prefix: string
}

const push = <T>(map: Map<string, T[]>, key: string, value: T) => {
  const list = map.get(key) ?? []
  list.push(value)
  map.set(key, list)
}

/** The network delay a `receiver_slow` fault put on this automatic attempt (the hook numbers those only). */
function delayOf(seen: Seen, e: TraceEntry, replay: boolean): number {
  if (replay || (e.data.trigger !== 'automatic' && e.data.trigger !== 'retry')) return 0
  const n = (seen.automaticSeen.get(str(e.data.event)) ?? 0) + 1
  seen.automaticSeen.set(str(e.data.event), n)
  return seen.networkDelay.get(`${str(e.data.event)}|${n}`) ?? 0
}

function readAttempt(seen: Seen, e: TraceEntry): void {
  const replay = e.kind === 'delivery.replay'
  const event = str(e.data.event)
  if (replay && e.data.outcome === 'delivered')
    seen.out.push(
      violation('receivers.replay_refused', `a replayed delivery of ${event} (${str(e.data.age)} ms old) was accepted`, [e]),
    )
  if (!replay) {
    const g = seen.genuine.get(event) ?? { attempts: [], delivered: false }
    g.attempts.push(e)
    if (e.data.outcome === 'delivered') g.delivered = true
    seen.genuine.set(event, g)
  }
  if (!replay && e.data.outcome === 'http_error' && Number(e.data.status) >= 400 && Number(e.data.status) < 500)
    seen.out.push(
      violation(
        'receivers.raw_body',
        `a genuine delivery of ${event}, signed in the '${seen.prefix}-Signature' header with the destination's current signing secret (env.secrets(), newest last), was refused with ${str(e.data.status)}: verify that header on the raw body against every secret in env.secrets() at the virtual time (env.clock.now)${seen.prefix === 'Service' ? "; a receiver reading 'Stripe-Signature' needs the check's option headerPrefix: 'Stripe'" : ''}`,
        [e],
      ),
    )
  const delay = delayOf(seen, e, replay)
  if (e.data.outcome === 'timeout' && DELIVERY_TIMEOUT_MS - delay >= RECEIVER_ANSWER_BUDGET_MS)
    seen.out.push(violation('receivers.answer_quickly', `the receiver did not answer ${event} within the delivery timeout`, [e]))
  if (!replay && e.data.outcome === 'delivered') {
    push(seen.deliveries, event, e)
    const object = seen.objectOf.get(event)
    if (object !== undefined) push(seen.byObject, object, e)
  }
}

/** A final state: forged objects must have none, the others their latest delivered state. */
function readState(seen: Seen, e: TraceEntry): void {
  const object = str(e.data.object)
  const f = seen.forgedObjects.get(object)
  if (f !== undefined) {
    if (e.data.actual !== null && e.data.actual !== undefined)
      seen.out.push(
        violation(
          'receivers.forgery_ignored',
          `a forged delivery (${str(f.data.forgery)}) left object ${object} in state '${str(e.data.actual)}'`,
          [f, e],
        ),
      )
    return
  }
  if (e.data.expected === e.data.actual) return
  const delivered = seen.byObject.get(object) ?? []
  seen.out.push(
    violation(
      'receivers.order',
      `object ${object} ended '${str(e.data.actual)}', expected '${str(e.data.expected)}' (its latest state)`,
      [...delivered.slice(-2), e],
    ),
  )
}

function readEntry(seen: Seen, e: TraceEntry): void {
  if (e.kind === 'harness.emitted') seen.objectOf.set(str(e.data.event), str(e.data.object))
  else if (e.kind === 'simulator.created') seen.prefix = e.data.prefix
  else if (e.kind === 'fault') {
    if (e.data.kind === 'receiver_slow' && e.data.event !== undefined)
      seen.networkDelay.set(`${str(e.data.event)}|${str(e.data.attempt)}`, Number(e.data.delay ?? 0))
  } else if (e.kind === 'harness.forged') {
    seen.forged.set(e.data.event, e)
    seen.forgedObjects.set(e.data.object, e)
  } else if (e.kind === 'harness.skipped') seen.skipped.add(e.data.event)
  else if (e.kind === 'harness.effect') push(seen.effects, str(e.data.event), e)
  else if (e.kind === 'delivery.attempt' || e.kind === 'delivery.replay') readAttempt(seen, e)
  else if (e.kind === 'delivery.exhausted' || e.kind === 'delivery.cancelled') {
    const g = seen.genuine.get(str(e.data.event))
    if (g !== undefined && g.ended === undefined) g.ended = e
  } else if (e.kind === 'harness.state') readState(seen, e)
}

/** Side effects: none for a forged event, at most one per genuine event. */
function checkEffects(seen: Seen): void {
  for (const [event, list] of seen.effects) {
    const f = seen.forged.get(event)
    if (f !== undefined) {
      seen.out.push(
        violation(
          'receivers.forgery_ignored',
          `a forged delivery (${str(f.data.forgery)}, answered ${str(f.data.status ?? f.data.outcome)}) caused ${list.length} side effect(s)`,
          [f, ...list],
        ),
      )
      continue
    }
    if (list.length > 1)
      seen.out.push(
        violation('receivers.effects_once', `event ${event} caused ${list.length} side effects`, [
          ...(seen.deliveries.get(event) ?? []).slice(0, 2),
          ...list,
        ]),
      )
  }
  for (const [event, list] of seen.deliveries)
    if (!seen.effects.has(event) && !seen.skipped.has(event))
      seen.out.push(violation('receivers.processed', `event ${event} was acknowledged but never processed`, list.slice(0, 1)))
}

// The receiver had its chance: it answered (no transport fault, no receiver down on that attempt)
// yet no attempt of the whole retry window got a 2xx. Attempts a fault or a down receiver turned
// into transport failures do not count as answers; a delivery still pending is the delivery
// checker's finding, a cancelled one (destination disabled) no one's.
function checkAcknowledged(seen: Seen): void {
  for (const [event, g] of seen.genuine) {
    if (g.delivered || g.ended?.kind !== 'delivery.exhausted') continue
    const answered = g.attempts.filter((a) => a.data.outcome === 'http_error')
    if (answered.length === 0) continue
    const statuses = [...new Set(answered.map((a) => str(a.data.status)))].join(', ')
    seen.out.push(
      violation(
        'receivers.acknowledges',
        `genuine delivery of ${event} was never acknowledged with a 2xx in the retry window (${answered.length} of ${g.attempts.length} attempts answered ${statuses})`,
        [...answered.slice(0, 2), g.ended],
      ),
    )
  }
}

/**
 * Webhook receiver checker over the service's own delivery trace (`delivery.attempt` and the
 * attacker's `delivery.replay`, from the service's delivery domain) and the harness's records: side effects
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
  refuseNotEntries('checkReceiver', entries)
  const seen: Seen = {
    out: [],
    effects: new Map(),
    deliveries: new Map(),
    byObject: new Map(),
    objectOf: new Map(),
    genuine: new Map(),
    networkDelay: new Map(),
    forged: new Map(),
    forgedObjects: new Map(),
    skipped: new Set(),
    automaticSeen: new Map(),
    prefix: 'Service',
  }
  for (const e of entries) readEntry(seen, e)
  checkEffects(seen)
  checkAcknowledged(seen)
  return seen.out
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
