import type { RequestRow } from '../../admin/request-log.js'

// The page shows the row the server's log makes (`GET /requests` answers it in snake_case): one type.
export type { RequestRow } from '../../admin/request-log.js'

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
