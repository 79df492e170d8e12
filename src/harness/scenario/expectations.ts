import type { Simulator } from '../../simulator/create-simulator.js'
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

/**
 * Evaluates the `expectations` section (except checkers): outcome tallies, events, trace entries,
 * receivers and delivery statuses.
 *
 * @example
 * const verdicts = evaluateExpectations({ scenario, sim, requests, deliveries, resolveAccount, destinationId })
 */
export function evaluateExpectations(input: ExpectationInput): Verdict[] {
  const { scenario, sim, requests, deliveries } = input
  const e = scenario.expectations
  const out: Verdict[] = []
  if (e.outcomes) out.push(...checkOutcomes('outcomes', requests, e.outcomes))
  for (const ev of e.events ?? []) {
    const account = ev.account === undefined ? undefined : input.resolveAccount(ev.account)
    const found = sim.admin
      .events({ type: ev.type, ...(account ? { account } : {}) })
      .filter((x) => ev.api_version === undefined || (x.body as { api_version?: string }).api_version === ev.api_version)
    const ok = countHolds(found.length, ev.count)
    out.push({
      name: `events '${ev.type}'${ev.account ? ` of ${ev.account}` : ''}${ev.api_version ? ` at ${ev.api_version}` : ''}`,
      ok,
      message: `${found.length} emitted (expected ${showCount(ev.count)})`,
      ...(ok ? {} : { witness: found.slice(0, 5).map((x) => ({ id: x.id, type: x.type, account: x.account })) }),
    })
  }
  for (const t of e.trace ?? []) {
    const found = sim.trace.filter(t.kind)
    const ok = countHolds(found.length, t.count)
    out.push({
      name: `trace '${t.kind}'`,
      ok,
      message: `${found.length} entries (expected ${showCount(t.count)})`,
      ...(ok ? {} : { witness: found.slice(0, 5) }),
    })
  }
  for (const name of Object.keys(e.receivers ?? {}).sort()) {
    const want = e.receivers?.[name] ?? {}
    const replays = deliveries.filter((d) => d.receiver === name && d.replay === true)
    const mine = deliveries.filter((d) => d.receiver === name && d.replay !== true)
    const ids = new Set(mine.filter((d) => d.status >= 200 && d.status < 300).map((d) => d.eventId))
    const seen = new Map<string, number>()
    for (const d of mine) seen.set(String(d.eventId), (seen.get(String(d.eventId)) ?? 0) + 1)
    const ackedTwice = mine.length - new Set(mine.map((d) => d.eventId)).size
    const counts: Record<string, number> = {
      attempts: mine.length,
      accepted: mine.filter((d) => d.status >= 200 && d.status < 300).length,
      refused: mine.filter((d) => d.status < 200 || d.status >= 300).length,
      unique: ids.size,
      duplicates: ackedTwice,
      bad_signatures: mine.filter((d) => d.signature === 'invalid').length,
      replays: replays.length,
      processed: (input.processed ?? []).filter((p) => p.receiver === name).length,
      out_of_order: outOfOrder(mine),
      replays_accepted: replays.filter((d) => d.status >= 200 && d.status < 300).length,
    }
    const { statuses, ...tallies } = want
    for (const [status, v] of Object.entries(statuses ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))) {
      const n = mine.filter((d) => String(d.status) === status).length
      const ok = countHolds(n, v)
      out.push({
        name: `receiver '${name}' status ${status}`,
        ok,
        message: `${n} (expected ${showCount(v)})`,
        ...(ok ? {} : { witness: { attempts: mine.slice(0, 8) } }),
      })
    }
    for (const [k, v] of Object.entries(tallies).sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (v === undefined) continue
      const ok = countHolds(counts[k] ?? 0, v)
      out.push({
        name: `receiver '${name}' ${k}`,
        ok,
        message: `${counts[k]} (expected ${showCount(v)})`,
        ...(ok ? {} : { witness: { counts, attempts: mine.slice(0, 8) } }),
      })
    }
  }
  const deliveriesOf = (sim.admin as unknown as Record<string, unknown>).deliveries
  for (const name of Object.keys(e.deliveries ?? {}).sort()) {
    const want = e.deliveries?.[name] ?? {}
    const id = input.destinationId(name)
    if (typeof deliveriesOf !== 'function' || id === undefined) {
      out.push({
        name: `deliveries of '${name}'`,
        ok: false,
        message: id === undefined ? `no destination named '${name}' was created` : 'this build has no sim.admin.deliveries',
      })
      continue
    }
    const records = (deliveriesOf as (f: object) => { status: string; eventId: string; attempts: unknown[] }[]).call(sim.admin, {
      destination: id,
    })
    const counts: Record<string, number> = { delivered: 0, failed: 0, pending: 0 }
    for (const r of records) counts[r.status.toLowerCase()] = (counts[r.status.toLowerCase()] ?? 0) + 1
    for (const [k, v] of Object.entries(want).sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (v === undefined) continue
      const ok = countHolds(counts[k] ?? 0, v)
      out.push({
        name: `deliveries of '${name}' ${k}`,
        ok,
        message: `${counts[k] ?? 0} (expected ${showCount(v)})`,
        ...(ok
          ? {}
          : {
              witness: {
                counts,
                records: records.slice(0, 5).map((r) => ({ event: r.eventId, status: r.status, attempts: r.attempts.length })),
              },
            }),
      })
    }
  }
  return out
}
