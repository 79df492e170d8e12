/**
 * One API request as the Requests page shows it (`GET /requests` answers it in snake_case).
 *
 * @example
 * const row: RequestRow = requestRow(json)
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

/**
 * A row of `GET /requests` as the admin API answers it.
 *
 * @example
 * const { data } = await adminGet<{ data: RequestJson[] }>('/requests?limit=10')
 */
export interface RequestJson {
  readonly seq: number
  readonly at_ms: number
  readonly wall: string | null
  readonly method: string
  readonly path: string
  readonly operation: string | null
  readonly account: string | null
  readonly mode: string | null
  readonly version: string | null
  readonly status: number
  readonly request_id: string | null
  readonly idempotency_key: string | null
  /** Left out of a list's rows (`bodies=false`): read for the row opened. */
  readonly request_body?: string
  readonly response_body?: string
}

const given = (value: string | null): string | undefined => value ?? undefined

/**
 * The page's row of a request the admin API answered.
 *
 * @example
 * requestRow(json).idempotencyKey // 'signup-jenny'
 */
export function requestRow(j: RequestJson): RequestRow {
  return {
    seq: j.seq,
    at: j.at_ms,
    wall: given(j.wall),
    method: j.method,
    path: j.path,
    operation: given(j.operation),
    account: given(j.account),
    mode: given(j.mode),
    version: given(j.version),
    status: j.status,
    requestId: given(j.request_id),
    idempotencyKey: given(j.idempotency_key),
    requestBody: j.request_body ?? '',
    responseBody: j.response_body ?? '',
  }
}
