import { ERRORS, type ErrorCode, type ErrorRow, errorMessage } from '#catalogue/errors.js'

/**
 * The error `type` values of the envelope, chosen so the official client maps each to the right
 * class: v1 maps on status (and `idempotency_error`), v2 maps on `type` first.
 */
export type ErrorType =
  | 'invalid_request_error'
  | 'api_error'
  | 'card_error'
  | 'idempotency_error'
  | 'rate_limit_error'
  | 'authentication_error'
  | 'permission_error'
  | 'temporary_session_expired'
  | 'not_cancelable'
  | 'already_canceled'
  | 'rate_limit'
  | (string & {})

export interface ServiceErrorInit {
  status: number
  type: ErrorType
  code?: string
  message: string
  param?: string
  /** Extra members of the error object (e.g. `decline_code`, `payment_intent`). */
  extra?: Record<string, unknown>
  /** Extra response headers (e.g. the rate-limit reason). */
  headers?: Record<string, string>
  /** Lock timeouts carry no request id, per the spec. */
  noRequestId?: boolean
}

/**
 * A refusal by the service: the HTTP layer turns it into the JSON error envelope
 * `{ error: { type, code, message, param } }` with its status. Domain code throws it before it
 * changes any state, so a refused request leaves the simulation as it was.
 *
 * @example
 * throw invalidRequest('No such customer: cus_x', { code: 'resource_missing', param: 'customer', status: 404 })
 */
export class ServiceError extends Error {
  readonly status: number
  readonly type: ErrorType
  /** Always present, so clients can switch on it; refusals without a provider code get a generic one by status. */
  readonly code: string
  readonly param: string | undefined
  readonly extra: Record<string, unknown> | undefined
  readonly headers: Record<string, string> | undefined
  readonly noRequestId: boolean

  constructor(init: ServiceErrorInit) {
    // A refusal is an answer, not a bug: no stack is captured (capturing one costs several times
    // the rest of a refused request, which property runs meet on every retried request).
    const limit = Error.stackTraceLimit
    Error.stackTraceLimit = 0
    super(init.message)
    Error.stackTraceLimit = limit
    this.name = 'ServiceError'
    this.status = init.status
    this.type = init.type
    this.code = init.code ?? defaultCode(init.status, init.param)
    this.param = init.param
    this.extra = init.extra
    this.headers = init.headers
    this.noRequestId = init.noRequestId ?? false
  }

  toJSON(): { error: Record<string, unknown> } {
    return {
      error: {
        type: this.type,
        code: this.code,
        message: this.message,
        param: this.param,
        ...this.extra,
      },
    }
  }
}

function defaultCode(status: number, param: string | undefined): string {
  if (status === 400) return param === undefined ? 'invalid_request' : 'parameter_invalid'
  if (status === 401) return 'authentication_required'
  if (status === 403) return 'permission_denied'
  if (status === 404) return 'resource_missing'
  if (status === 409) return 'conflict'
  if (status === 429) return 'rate_limit'
  return status >= 500 ? 'api_error' : 'invalid_request'
}

/** A 400 (or the given status) `invalid_request_error`. */
export function invalidRequest(
  message: string,
  options: { code?: string; param?: string; status?: number; extra?: Record<string, unknown> } = {},
): ServiceError {
  return new ServiceError({
    status: options.status ?? 400,
    type: 'invalid_request_error',
    message,
    ...(options.code === undefined ? {} : { code: options.code }),
    ...(options.param === undefined ? {} : { param: options.param }),
    ...(options.extra === undefined ? {} : { extra: options.extra }),
  })
}

/**
 * The refusal of one row of the error table: its status, its envelope `type` (`v2Type` on `/v2`
 * when `api` says so) and its message with `values` filled, so no throw site words it again.
 *
 * @example
 * throw tableError('charge_already_refunded', { charge: 'ch_1' }, { param: 'charge' })
 * // 400 invalid_request_error "Charge ch_1 has already been refunded."
 */
export function tableError(
  code: ErrorCode,
  values: Readonly<Record<string, string | number>> = {},
  options: {
    param?: string
    /** A status other than the row's: `resource_missing` on a body parameter is a 400, on a path a 404. */
    status?: number
    api?: 'v1' | 'v2'
    extra?: Record<string, unknown>
    headers?: Record<string, string>
    noRequestId?: boolean
  } = {},
): ServiceError {
  const row: ErrorRow = ERRORS[code]
  return new ServiceError({
    status: options.status ?? row.status,
    type: options.api === 'v2' ? (row.v2Type ?? row.type) : row.type,
    code: row.code ?? code,
    message: errorMessage(code, values),
    ...(options.param === undefined ? {} : { param: options.param }),
    ...(options.extra === undefined ? {} : { extra: options.extra }),
    ...(options.headers === undefined ? {} : { headers: options.headers }),
    ...(options.noRequestId === undefined ? {} : { noRequestId: options.noRequestId }),
  })
}

/** 404 `resource_missing` for an object this account and mode cannot see. */
export function resourceMissing(kind: string, id: string, param = 'id'): ServiceError {
  return tableError('resource_missing', { kind, id }, { param })
}
