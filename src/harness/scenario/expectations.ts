import type { Simulator } from '#simulator/index.js'
import type { DeliveryRecord, RequestRecord, Verdict } from './run-result.js'
import type { CountExpectation, Scenario } from './schema.js'

/**
 * True when `count` satisfies `expected` (exactly n, or within `{ min, max }`).
 *
 * @example
 * countHolds(3, { min: 1 }) // true
 */
export function countHolds(count: number, expected: CountExpectation): boolean {
  if (typeof expected === 'number') return count === expected
  return (expected.min === undefined || count >= expected.min) && (expected.max === undefined || count <= expected.max)
}

/**
 * Renders a count expectation for messages.
 *
 * @example
 * showCount({ min: 2 }) // '>= 2'
 */
export function showCount(expected: CountExpectation): string {
  if (typeof expected === 'number') return `${expected}`
  if (expected.min !== undefined && expected.max !== undefined) return `${expected.min}..${expected.max}`
  return expected.min !== undefined ? `>= ${expected.min}` : `<= ${expected.max ?? 'any'}`
}

/**
 * True when an outcome label falls under a key: `429` covers `429 lock_timeout`.
 *
 * @example
 * outcomeMatches('429 global-rate', '429') // true
 */
export function outcomeMatches(outcome: string, key: string): boolean {
  return outcome === key || outcome.startsWith(`${key} `)
}

/**
 * Checks a tally of outcome labels; one verdict per key.
 *
 * @example
 * checkOutcomes('outcomes', requests, { '200': 3 })
 */
export function checkOutcomes(
  name: string,
  requests: readonly RequestRecord[],
  expected: Readonly<Record<string, CountExpectation>>,
): Verdict[] {
  return Object.keys(expected)
    .sort()
    .map((key) => {
      const want = expected[key] as CountExpectation
      const hits = requests.filter((r) => outcomeMatches(r.outcome, key))
      const ok = countHolds(hits.length, want)
      const tally = tallyOutcomes(requests)
      return ok
        ? { name: `${name} '${key}'`, ok, message: `${hits.length} (expected ${showCount(want)})` }
        : { name: `${name} '${key}'`, ok, message: `${hits.length} request(s), expected ${showCount(want)}`, witness: { tally } }
    })
}

/**
 * Counts requests per outcome label, keys sorted.
 *
 * @example
 * tallyOutcomes(requests) // { '200': 4, '429 global-rate': 2 }
 */
export function tallyOutcomes(requests: readonly RequestRecord[]): Record<string, number> {
  const tally: Record<string, number> = {}
  for (const r of requests) tally[r.outcome] = (tally[r.outcome] ?? 0) + 1
  return Object.fromEntries(Object.entries(tally).sort(([a], [b]) => (a < b ? -1 : 1)))
}

/** First sightings of events created before an event the receiver had already seen. */
function outOfOrder(deliveries: readonly DeliveryRecord[]): number {
  const seen = new Set<string | null>()
  let latest = Number.NEGATIVE_INFINITY
  let n = 0
  for (const d of deliveries) {
    if (seen.has(d.eventId) || d.created === undefined) continue
    seen.add(d.eventId)
    if (d.created < latest) n++
    latest = Math.max(latest, d.created)
  }
  return n
}

interface ExpectationInput {
  readonly scenario: Scenario
  readonly sim: Simulator
  readonly requests: readonly RequestRecord[]
  readonly deliveries: readonly DeliveryRecord[]
  /** Side effects receivers reported (`ctx.processed`). */
  readonly processed?: readonly { receiver: string; eventId: string }[]
  /** Resolves an account name to its id. */
  resolveAccount(name: string): string
  /** Resolves a destination name to its id, if it was created. */
  destinationId(name: string): string | undefined
}

type Expectations = Scenario['expectations']
type ReceiverWant = NonNullable<Expectations['receivers']>[string]

const byKey = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : 1)

function eventVerdicts(input: ExpectationInput, e: Expectations): Verdict[] {
  return (e.events ?? []).map((ev) => {
    const account = ev.account === undefined ? undefined : input.resolveAccount(ev.account)
    const found = input.sim.admin
      .events({ type: ev.type, ...(account ? { account } : {}) })
      .filter((x) => ev.api_version === undefined || (x.body as { api_version?: string }).api_version === ev.api_version)
    const ok = countHolds(found.length, ev.count)
    return {
      name: `events '${ev.type}'${ev.account ? ` of ${ev.account}` : ''}${ev.api_version ? ` at ${ev.api_version}` : ''}`,
      ok,
      message: `${found.length} emitted (expected ${showCount(ev.count)})`,
      ...(ok ? {} : { witness: found.slice(0, 5).map((x) => ({ id: x.id, type: x.type, account: x.account })) }),
    }
  })
}

function traceVerdicts(input: ExpectationInput, e: Expectations): Verdict[] {
  return (e.trace ?? []).map((t) => {
    const found = input.sim.trace.filter(t.kind)
    const ok = countHolds(found.length, t.count)
    return {
      name: `trace '${t.kind}'`,
      ok,
      message: `${found.length} entries (expected ${showCount(t.count)})`,
      ...(ok ? {} : { witness: found.slice(0, 5) }),
    }
  })
}

const accepted = (d: DeliveryRecord) => d.status >= 200 && d.status < 300

/** What a receiver saw, by the names `expectations.receivers` counts (replays apart). */
function receiverCounts(input: ExpectationInput, name: string, mine: readonly DeliveryRecord[]): Record<string, number> {
  const replays = input.deliveries.filter((d) => d.receiver === name && d.replay === true)
  return {
    attempts: mine.length,
    accepted: mine.filter(accepted).length,
    refused: mine.filter((d) => !accepted(d)).length,
    unique: new Set(mine.filter(accepted).map((d) => d.eventId)).size,
    duplicates: mine.length - new Set(mine.map((d) => d.eventId)).size,
    bad_signatures: mine.filter((d) => d.signature === 'invalid').length,
    replays: replays.length,
    processed: (input.processed ?? []).filter((p) => p.receiver === name).length,
    out_of_order: outOfOrder(mine),
    replays_accepted: replays.filter(accepted).length,
  }
}

function oneReceiverVerdicts(input: ExpectationInput, name: string, want: ReceiverWant): Verdict[] {
  const out: Verdict[] = []
  const mine = input.deliveries.filter((d) => d.receiver === name && d.replay !== true)
  const counts = receiverCounts(input, name, mine)
  const { statuses, ...tallies } = want
  for (const [status, v] of Object.entries(statuses ?? {}).sort(byKey)) {
    const n = mine.filter((d) => String(d.status) === status).length
    const ok = countHolds(n, v)
    out.push({
      name: `receiver '${name}' status ${status}`,
      ok,
      message: `${n} (expected ${showCount(v)})`,
      ...(ok ? {} : { witness: { attempts: mine.slice(0, 8) } }),
    })
  }
  for (const [k, v] of Object.entries(tallies).sort(byKey)) {
    if (v === undefined) continue
    const ok = countHolds(counts[k] ?? 0, v)
    out.push({
      name: `receiver '${name}' ${k}`,
      ok,
      message: `${counts[k]} (expected ${showCount(v)})`,
      ...(ok ? {} : { witness: { counts, attempts: mine.slice(0, 8) } }),
    })
  }
  return out
}

function receiverVerdicts(input: ExpectationInput, e: Expectations): Verdict[] {
  return Object.keys(e.receivers ?? {})
    .sort()
    .flatMap((name) => oneReceiverVerdicts(input, name, e.receivers?.[name] ?? {}))
}

type DeliveryRow = { status: string; eventId: string; attempts: unknown[] }

function oneDestinationVerdicts(
  name: string,
  want: Record<string, CountExpectation | undefined>,
  records: DeliveryRow[],
): Verdict[] {
  const counts: Record<string, number> = { delivered: 0, failed: 0, pending: 0 }
  for (const r of records) counts[r.status.toLowerCase()] = (counts[r.status.toLowerCase()] ?? 0) + 1
  const out: Verdict[] = []
  for (const [k, v] of Object.entries(want).sort(byKey)) {
    if (v === undefined) continue
    const ok = countHolds(counts[k] ?? 0, v)
    const witness = {
      counts,
      records: records.slice(0, 5).map((r) => ({ event: r.eventId, status: r.status, attempts: r.attempts.length })),
    }
    out.push({
      name: `deliveries of '${name}' ${k}`,
      ok,
      message: `${counts[k] ?? 0} (expected ${showCount(v)})`,
      ...(ok ? {} : { witness }),
    })
  }
  return out
}

function deliveryVerdicts(input: ExpectationInput, e: Expectations): Verdict[] {
  const deliveriesOf = (input.sim.admin as unknown as Record<string, unknown>).deliveries
  return Object.keys(e.deliveries ?? {})
    .sort()
    .flatMap((name): Verdict[] => {
      const id = input.destinationId(name)
      if (typeof deliveriesOf !== 'function' || id === undefined) {
        const message = id === undefined ? `no destination named '${name}' was created` : 'this build has no sim.admin.deliveries'
        return [{ name: `deliveries of '${name}'`, ok: false, message }]
      }
      const records = (deliveriesOf as (f: object) => DeliveryRow[]).call(input.sim.admin, { destination: id })
      return oneDestinationVerdicts(name, e.deliveries?.[name] ?? {}, records)
    })
}

/**
 * Evaluates the `expectations` section (except checkers): outcome tallies, events, trace entries,
 * receivers and delivery statuses.
 *
 * @example
 * const verdicts = evaluateExpectations({ scenario, sim, requests, deliveries, resolveAccount, destinationId })
 */
export function evaluateExpectations(input: ExpectationInput): Verdict[] {
  const e = input.scenario.expectations
  return [
    ...(e.outcomes ? checkOutcomes('outcomes', input.requests, e.outcomes) : []),
    ...eventVerdicts(input, e),
    ...traceVerdicts(input, e),
    ...receiverVerdicts(input, e),
    ...deliveryVerdicts(input, e),
  ]
}
