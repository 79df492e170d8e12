import type { TraceEntry } from '#kernel/index.js'
import { refuseNotEntries } from '../validate-input.js'
import { traceChecker } from './checker.js'
import { type Violation, violation } from './violation.js'

/** The shortest pause (virtual ms) a client must leave after a 429 before its next request. */
export const MIN_BACKOFF_MS = 100

/**
 * Client behaviour checker over the `http` entries of a run (one client): no reuse of an expired
 * session token beyond the first 401 (a second expired-session 401 with no new session in
 * between), and a pause of at least `minBackoffMs` after every 429 before the next request.
 *
 * @example
 * checkClient(sim.trace.entries())
 */
export function checkClient(entries: readonly TraceEntry[], minBackoffMs = MIN_BACKOFF_MS): Violation[] {
  refuseNotEntries('checkClient', entries)
  const out: Violation[] = []
  let expired: TraceEntry | undefined
  let reported = false
  let last429: TraceEntry | undefined
  for (const e of entries) {
    if (e.kind === 'session.created') {
      expired = undefined
      reported = false
    }
    if (e.kind !== 'http') continue
    if (last429 !== undefined) {
      if (e.at - last429.at < minBackoffMs) {
        out.push(
          violation(
            'clients.backoff',
            `request ${e.seq} came ${e.at - last429.at} ms after a 429 (at least ${minBackoffMs} ms expected)`,
            [last429, e],
          ),
        )
      }
      last429 = undefined
    }
    if (Number(e.data.status) === 429) last429 = e
    if (Number(e.data.status) === 401 && String(e.data.response).includes('billing_meter_event_session_expired')) {
      if (expired !== undefined) {
        if (!reported)
          out.push(
            violation('clients.session_refresh', 'an expired session token was used again after its first 401', [expired, e]),
          )
        reported = true
      } else expired = e
    }
  }
  return out
}

/**
 * The client behaviour checker as a `Checker` (scenario name `clients`).
 *
 * @example
 * await clientChecker.check({ entries: sim.trace.entries(), requests: [], deliveries: [] })
 */
export const clientChecker = traceChecker('clients', (entries) => checkClient(entries), 'sessions refreshed, 429s backed off')
