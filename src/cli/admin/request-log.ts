/** A trace entry as the log reads it (the kernel's entries have this shape). */
interface TraceLine {
  readonly seq: number
  readonly at: number
  readonly kind: string
  readonly data: Readonly<Record<string, unknown>>
}

/**
 * One API request as the dashboard's Requests page lists it, read off the trace: the service's `http` entry
 * (what it answered) joined with serve's `serve.request` entry (what arrived: headers, wall time).
 *
 * @example
 * const log = requestLog()
 * log.add(sim.trace.entries())
 * const row: RequestRow | undefined = log.rows[0]
 */
export interface RequestRow {
  readonly seq: number
  /** Virtual time the request was served at (epoch ms). */
  readonly at: number
  /** Real arrival time (ISO 8601), for a request that came over HTTP. */
  readonly wall: string | undefined
  readonly method: string
  readonly path: string
  readonly operation: string | undefined
  readonly account: string | undefined
  readonly mode: string | undefined
  /** The version the request asked for, or the account's default (marked so). */
  readonly version: string | undefined
  readonly status: number
  readonly requestId: string | undefined
  readonly idempotencyKey: string | undefined
  readonly requestBody: string
  readonly responseBody: string
}

interface Arrived {
  readonly at: number
  readonly wall: string
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** Arrivals waiting for their answer at most: far more than requests in flight at once. */
const MAX_WAITING = 1000

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)

/**
 * The log of API requests `GET /__sim/requests` answers from: trace entries are added as they come
 * (only the entries appended since the last read), and each answered request becomes a row, with
 * the accounts seen kept for the page's account filter. A request that arrived
 * over HTTP is matched with its answer by method, target and body, oldest first: the answer's
 * entry is written when it is done, so concurrent requests may finish in another order.
 *
 * @example
 * const log = requestLog()
 * log.add(sim.trace.entries())
 * log.rows.length
 */
export function requestLog() {
  let prefix = 'stripe'
  const versions = new Map<string, string>()
  const waiting: Arrived[] = []
  const rows: RequestRow[] = []
  const accounts = new Set<string>()
  let next = 0
  const arrivedFor = (method: string, path: string, body: string): Arrived | undefined => {
    const i = waiting.findIndex((a) => a.method === method && a.path === path && (a.body === body || a.method === 'GET'))
    return i === -1 ? undefined : waiting.splice(i, 1)[0]
  }
  const answered = (line: TraceLine): RequestRow => {
    const d = line.data
    const method = text(d.method) ?? ''
    const path = text(d.path) ?? ''
    const arrived = arrivedFor(method, path, text(d.request) ?? '')
    const account = text(d.account)
    const asked = arrived?.headers[`${prefix}-version`]
    const fallback = account === undefined ? undefined : versions.get(account)
    return {
      seq: line.seq,
      at: arrived?.at ?? line.at,
      wall: arrived?.wall,
      method,
      path,
      operation: text(d.operation),
      account,
      mode: text(d.mode),
      version: asked ?? (fallback === undefined ? undefined : `${fallback} (account default)`),
      status: typeof d.status === 'number' ? d.status : 0,
      requestId: text(d.request_id),
      idempotencyKey: arrived?.headers['idempotency-key'],
      requestBody: text(d.request) ?? '',
      responseBody: text(d.response) ?? '',
    }
  }
  return {
    rows: rows as readonly RequestRow[],
    /** Every account a request was made as, in the order first seen. */
    accounts: accounts as ReadonlySet<string>,
    /** The first sequence number not read yet. */
    get next() {
      return next
    },
    add(lines: readonly TraceLine[]): void {
      for (const line of lines) {
        if (line.seq < next) continue
        next = line.seq + 1
        const d = line.data
        if (line.kind === 'simulator.created' && typeof d.prefix === 'string') prefix = d.prefix.toLowerCase()
        else if (line.kind === 'account.version' && typeof d.id === 'string' && typeof d.version === 'string')
          versions.set(d.id, d.version)
        else if (line.kind === 'serve.request' && d.admin === false) {
          // An arrival never answered (its connection dropped) must not be kept for ever.
          if (waiting.length >= MAX_WAITING) waiting.shift()
          waiting.push({
            at: line.at,
            wall: text(d.wall) ?? '',
            method: text(d.method) ?? '',
            path: text(d.path) ?? '',
            headers: (d.headers ?? {}) as Record<string, string>,
            body: text(d.body) ?? '',
          })
        } else if (line.kind === 'http') {
          const row = answered(line)
          rows.push(row)
          if (row.account !== undefined) accounts.add(row.account)
        }
      }
    },
  }
}

/**
 * What `requestLog()` returns.
 *
 * @example
 * const log: RequestLog = requestLog()
 */
export type RequestLog = ReturnType<typeof requestLog>
