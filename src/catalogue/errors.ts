/**
 * The error table: every error code the simulator answers with, its HTTP status, its envelope
 * `type` and its message template, with the provider's wording where it is known. `{name}` in a
 * template is filled by {@link errorMessage}. Codes marked "spec" are the spec's Errors section;
 * the others are the provider's public codes the simulator also emits.
 *
 * @example
 * import { ERRORS, errorMessage } from '#catalogue/errors.js'
 * ERRORS.resource_missing.status                                  // 404
 * errorMessage('resource_missing', { kind: 'customer', id: 'cus_1' }) // "No such customer: 'cus_1'"
 */

import { BILLING_ERRORS } from './errors/billing-errors.js'
import type { ErrorRow } from './errors/error-row.js'
import { METERING_ERRORS } from './errors/metering-errors.js'
import { PAYMENT_ERRORS } from './errors/payment-errors.js'
import { REQUEST_ERRORS } from './errors/request-errors.js'
import { WEBHOOK_ERRORS } from './errors/webhook-errors.js'

export type { ErrorRow } from './errors/error-row.js'

const byTopic = { ...REQUEST_ERRORS, ...PAYMENT_ERRORS, ...BILLING_ERRORS, ...METERING_ERRORS, ...WEBHOOK_ERRORS }

/** The rows of every topic in one table, its codes in sorted order (as one sorted table reads). */
function sortedByCode<T extends Record<string, ErrorRow>>(rows: T): T {
  const sorted: Record<string, ErrorRow> = {}
  for (const code of Object.keys(rows).sort()) sorted[code] = rows[code] as ErrorRow
  return sorted as T
}

/**
 * code -> status, type, message template. Sorted by code; the rows are kept by topic under
 * `errors/`.
 *
 * @example
 * ERRORS.lock_timeout // { status: 429, type: 'invalid_request_error', shouldRetry: true, ... }
 */
export const ERRORS = sortedByCode(byTopic)

/** Every code of the table. */
export type ErrorCode = keyof typeof ERRORS

/** Codes only the simulator answers with (every row of theirs is the simulator's own). */
let simulatorOnly: ReadonlySet<string> | undefined
function simulatorOnlyCodes(): ReadonlySet<string> {
  if (simulatorOnly !== undefined) return simulatorOnly
  const byCode = new Map<string, boolean>()
  for (const [key, row] of Object.entries(ERRORS) as [string, ErrorRow][]) {
    const code = row.code ?? key
    byCode.set(code, (byCode.get(code) ?? true) && row.source === 'simulator')
  }
  simulatorOnly = new Set([...byCode].filter(([, only]) => only).map(([code]) => code))
  return simulatorOnly
}

/**
 * The provider's documentation address for a code: `https://docs.stripe.com/error-codes/` and the
 * code with dashes for underscores (decision: the provider's `doc_url` format). A code only the
 * simulator answers with has no page there: it gets the list of codes itself, an address that
 * resolves, rather than one that would not.
 *
 * @example
 * errorDocUrl('resource_missing') // 'https://docs.stripe.com/error-codes/resource-missing'
 * errorDocUrl('invalid_json')     // 'https://docs.stripe.com/error-codes'
 */
export function errorDocUrl(code: string): string {
  if (simulatorOnlyCodes().has(code)) return 'https://docs.stripe.com/error-codes'
  return `https://docs.stripe.com/error-codes/${code.replaceAll('_', '-')}`
}

/**
 * Fills a code's message template; placeholders without a value stay as written.
 *
 * @example
 * errorMessage('parameter_missing', { param: 'amount' }) // 'Missing required param: amount.'
 */
export function errorMessage(code: ErrorCode, values: Readonly<Record<string, string | number>> = {}): string {
  return ERRORS[code].message.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  )
}
