/** One row of the error table. */
export interface ErrorRow {
  readonly status: number
  /** The envelope `type` (v1; and v2 unless {@link ErrorRow.v2Type} says otherwise). */
  readonly type: string
  /** The envelope `type` on `/v2` paths when it differs (the v2 client maps on `type` first). */
  readonly v2Type?: string
  /** Message template; `{name}` placeholders. */
  readonly message: string
  /** `<Prefix>-Should-Retry` header value the response carries, when it carries one. */
  readonly shouldRetry?: boolean
  /** Where the row comes from: the spec's tables, or the provider's public error codes. */
  readonly source: 'spec' | 'provider' | 'simulator'
  /**
   * The envelope `code` when it is not the row's key: a second refusal under one provider code
   * with its own status or wording (a 409 idempotency conflict beside the 400 one).
   */
  readonly code?: string
}

/**
 * One row, its source `provider` unless given.
 *
 * @example
 * row(404, INVALID, "No such {kind}: '{id}'") // { status: 404, type: 'invalid_request_error', ... }
 */
export const row = (
  status: number,
  type: string,
  message: string,
  source: ErrorRow['source'] = 'provider',
  extra: Partial<ErrorRow> = {},
): ErrorRow => ({ status, type, message, source, ...extra })

/** The envelope `type` of most refusals. */
export const INVALID = 'invalid_request_error'
