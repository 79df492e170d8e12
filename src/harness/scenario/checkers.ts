import type { Simulator } from '../../simulator/create-simulator.js'
import type { DeliveryRecord, RequestRecord, Verdict } from './run-result.js'
import type { Scenario } from './schema.js'

/** What a checker sees after the workload: the run so far, the simulator, and a way to re-run. */
export interface CheckContext {
  readonly scenario: Scenario
  readonly seed: string
  readonly sim: Simulator
  readonly requests: readonly RequestRecord[]
  readonly deliveries: readonly DeliveryRecord[]
  /** Runs the same scenario and seed again in this process and returns its trace hash. */
  rerun(): Promise<string>
}

/** A history checker named in `expectations.checkers`. */
export type Checker = (ctx: CheckContext) => Verdict | Promise<Verdict>

const verdict = (name: string, ok: boolean, message: string, witness?: unknown): Verdict =>
  witness === undefined ? { name, ok, message } : { name, ok, message, witness }

/**
 * Checkers by name. The property harness registers more with `registerChecker`.
 *
 * - `no-server-errors`: no request was answered 5xx.
 * - `signatures-valid`: every delivery a receiver saw carried a valid signature for a known secret.
 * - `deliveries-acknowledged`: every event a receiver saw was in the end answered 2xx.
 * - `no-duplicate-deliveries`: no receiver saw an event id twice after acknowledging it.
 * - `deterministic`: the same scenario and seed, run again, gives the same trace hash.
 *
 * @example
 * registerChecker('always', () => ({ name: 'always', ok: true, message: 'holds' }))
 */
export const checkers = new Map<string, Checker>([
  [
    'no-server-errors',
    ({ requests }) => {
      const bad = requests.filter((r) => r.status >= 500)
      return verdict(
        'no-server-errors',
        bad.length === 0,
        bad.length === 0 ? `${requests.length} requests, none 5xx` : `${bad.length} request(s) answered 5xx`,
        bad.length ? bad.slice(0, 5) : undefined,
      )
    },
  ],
  [
    'signatures-valid',
    ({ deliveries }) => {
      const bad = deliveries.filter((d) => d.signature === 'invalid' && d.replay !== true)
      return verdict(
        'signatures-valid',
        bad.length === 0,
        bad.length === 0
          ? `${deliveries.length} deliveries, every signature valid`
          : `${bad.length} deliveries failed signature verification`,
        bad.length ? bad.slice(0, 5) : undefined,
      )
    },
  ],
  [
    'deliveries-acknowledged',
    ({ deliveries }) => {
      const acked = new Set<string>()
      const seen = new Map<string, DeliveryRecord>()
      for (const d of deliveries) {
        if (d.replay === true) continue
        const key = `${d.receiver} ${d.eventId}`
        if (d.status >= 200 && d.status < 300) acked.add(key)
        if (!seen.has(key)) seen.set(key, d)
      }
      const missing = [...seen.entries()].filter(([k]) => !acked.has(k)).map(([, d]) => d)
      return verdict(
        'deliveries-acknowledged',
        missing.length === 0,
        missing.length === 0
          ? `${seen.size} event(s) delivered, all acknowledged`
          : `${missing.length} event(s) never acknowledged by their receiver`,
        missing.length ? missing.slice(0, 5) : undefined,
      )
    },
  ],
  [
    'no-duplicate-deliveries',
    ({ deliveries }) => {
      const acked = new Set<string>()
      const dups: DeliveryRecord[] = []
      for (const d of deliveries) {
        if (d.replay === true) continue
        const key = `${d.receiver} ${d.eventId}`
        if (acked.has(key)) dups.push(d)
        if (d.status >= 200 && d.status < 300) acked.add(key)
      }
      return verdict(
        'no-duplicate-deliveries',
        dups.length === 0,
        dups.length === 0
          ? 'no event delivered again after it was acknowledged'
          : `${dups.length} delivery(ies) of already acknowledged events`,
        dups.length ? dups.slice(0, 5) : undefined,
      )
    },
  ],
  [
    'deterministic',
    async ({ rerun, sim }) => {
      const first = sim.trace.hash()
      const second = await rerun()
      return verdict(
        'deterministic',
        first === second,
        first === second
          ? `trace hash ${first.slice(0, 16)}... reproduced`
          : 'a second run with the same seed produced a different trace',
        first === second ? undefined : { first, second },
      )
    },
  ],
])

/**
 * Adds or replaces a checker.
 *
 * @example
 * registerChecker('no-429', ({ requests }) => ({ name: 'no-429', ok: !requests.some((r) => r.status === 429), message: '' }))
 */
export function registerChecker(name: string, checker: Checker): void {
  checkers.set(name, checker)
}
