import type { Simulator } from '#simulator/index.js'
import { iso } from './admin-io.js'
import { type RequestLog, type RequestRow, requestLog } from './request-log.js'

/**
 * Which requests a window lists: a status (`402`) or status class (`4xx`), text the path holds,
 * and the account; every given one must match.
 *
 * @example
 * const filter: RequestFilter = { status: '4xx', path: '/v1/customers' }
 */
export interface RequestFilter {
  /** The one request with this trace sequence number (a row the page opens). */
  readonly seq?: number | undefined
  readonly status?: string | undefined
  readonly path?: string | undefined
  readonly account?: string | undefined
}

/** The request log of each served simulator, caught up with its trace on each read. */
const logs = new WeakMap<Simulator, RequestLog>()

/** The simulator's request log with every entry of its trace read (only the new ones are). */
function caughtUp(sim: Simulator): RequestLog {
  let log = logs.get(sim)
  if (log === undefined) {
    log = requestLog()
    logs.set(sim, log)
  }
  const held = sim.trace.entries()
  const from = Math.max(0, log.next - (held[0]?.seq ?? 0))
  if (from < held.length) log.add(held.slice(from))
  return log
}

function matcher(filter: RequestFilter): ((row: RequestRow) => boolean) | undefined {
  const { seq, status, path, account } = filter
  if (seq === undefined && status === undefined && path === undefined && account === undefined) return undefined
  const exact = status !== undefined && !status.endsWith('xx') ? Number(status) : undefined
  const klass = status?.endsWith('xx') === true ? status[0] : undefined
  return (row) =>
    (seq === undefined || row.seq === seq) &&
    (exact === undefined || row.status === exact) &&
    (klass === undefined || String(row.status)[0] === klass) &&
    (path === undefined || row.path.includes(path)) &&
    (account === undefined || row.account === account)
}

/** A row as the admin API answers it (snake_case, the virtual time as ISO and as epoch ms), its bodies when asked. */
const rowJson = (r: RequestRow, bodies: boolean) => ({
  seq: r.seq,
  at: iso(r.at),
  at_ms: r.at,
  wall: r.wall ?? null,
  method: r.method,
  path: r.path,
  operation: r.operation ?? null,
  account: r.account ?? null,
  mode: r.mode ?? null,
  version: r.version ?? null,
  status: r.status,
  request_id: r.requestId ?? null,
  idempotency_key: r.idempotencyKey ?? null,
  ...(bodies ? { request_body: r.requestBody, response_body: r.responseBody } : {}),
})

/**
 * A window of the API requests a simulator answered, newest first: the `limit` rows from `offset`
 * among those matching `filter`, with how many match (`total`), how many there are (`count`) and
 * the accounts seen; without `bodies`, the rows leave out the request and response bodies (a list
 * shows none: it reads them for the one row opened, by `seq`). The rows are kept per simulator and only the trace entries appended since the
 * last read are read, so a window costs one pass over the rows (none without a filter) however
 * large the log has grown, and a dashboard downloads only the rows in view.
 *
 * @example
 * requestWindow(sim, { offset: 0, limit: 50, status: '5xx' }) // { total: 2, count: 500, data: [...] }
 */
export function requestWindow(sim: Simulator, query: RequestFilter & { offset: number; limit: number; bodies: boolean }) {
  const log = caughtUp(sim)
  const rows = log.rows
  const match = matcher(query)
  const data: RequestRow[] = []
  let total = rows.length
  if (match === undefined) {
    for (let i = rows.length - 1 - query.offset; i >= 0 && data.length < query.limit; i--) data.push(rows[i] as RequestRow)
  } else {
    total = 0
    for (let i = rows.length - 1; i >= 0; i--) {
      const row = rows[i] as RequestRow
      if (!match(row)) continue
      if (total >= query.offset && data.length < query.limit) data.push(row)
      total++
    }
  }
  return {
    total,
    count: rows.length,
    offset: query.offset,
    accounts: [...log.accounts],
    data: data.map((r) => rowJson(r, query.bodies)),
  }
}
