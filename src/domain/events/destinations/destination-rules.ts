import type { Mode } from '../../mode.js'
import { invalidRequest, tableError } from '../../service-error.js'

/** Event types that are sent while the service waits for the receiver's answer. */
export const SYNCHRONOUS_TYPES: ReadonlySet<string> = new Set(['issuing_authorization.request'])

/** Types an organisation destination may not subscribe to (they must be handled inside an account). */
export const ORGANISATION_FORBIDDEN: ReadonlySet<string> = new Set(['issuing_authorization.request'])

/** Types whose delivery to an organisation destination cannot influence the outcome. */
export const ORGANISATION_NO_INFLUENCE: ReadonlySet<string> = new Set(['checkout_sessions.completed', 'invoice.created'])

/** Thin event type names carry their API namespace (`v1.billing.meter.no_meter_found`). */
export function isThinType(type: string): boolean {
  return /^v\d+\./.test(type)
}

const TYPE_NAME = /^[a-z0-9_]+(\.[a-z0-9_]+)+$/

/**
 * Checks `enabled_events` for a destination: `'*'` or event type names of the destination's
 * payload kind (thin names start with `v1.`/`v2.`), never `issuing_authorization.request` on an
 * organisation destination.
 *
 * @example
 * checkEnabledEvents(['customer.created'], 'snapshot', false, 'enabled_events') // ok
 * checkEnabledEvents(['customer.created'], 'thin', false, 'enabled_events')     // throws 400
 */
export function checkEnabledEvents(
  types: readonly string[],
  payload: 'snapshot' | 'thin',
  organisation: boolean,
  param: string,
): void {
  if (types.length === 0) throw invalidRequest('enabled_events must name at least one event type (or "*").', { param })
  for (const [i, t] of types.entries()) {
    if (t === '*') continue
    if (!TYPE_NAME.test(t)) throw invalidRequest(`Invalid event type '${t}' in enabled_events.`, { param: `${param}[${i}]` })
    if (payload === 'snapshot' && isThinType(t)) {
      throw invalidRequest(
        `'${t}' is a thin event type; snapshot and thin events need separate destinations (create one with event_payload 'thin').`,
        { param: `${param}[${i}]` },
      )
    }
    if (payload === 'thin' && !isThinType(t)) {
      throw invalidRequest(
        `'${t}' is a snapshot event type; snapshot and thin events need separate destinations (create one with event_payload 'snapshot').`,
        { param: `${param}[${i}]` },
      )
    }
    if (organisation && ORGANISATION_FORBIDDEN.has(t)) {
      throw invalidRequest(
        `Organisation event destinations cannot subscribe to '${t}'; handle it with an endpoint in an account of the organisation.`,
        { param: `${param}[${i}]` },
      )
    }
  }
}

/** True for `localhost`, `127.0.0.0/8` and `::1`. */
export function isLoopback(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  return h === 'localhost' || h.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(h) || h === '::1'
}

/**
 * Checks a webhook URL: absolute, HTTPS in live mode (and not loopback: it must be publicly
 * accessible), HTTPS or HTTP on localhost/loopback in test mode for local development.
 *
 * @example
 * checkUrl('http://localhost:4242/webhook', 'test', 'webhook_endpoint.url') // ok
 * checkUrl('http://example.com/webhook', 'live', 'webhook_endpoint.url')    // throws 400
 */
export function checkUrl(url: string, mode: Mode, param: string): void {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw tableError('url_invalid_relative', { url }, { param })
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw tableError('url_invalid_credentials', {}, { param })
  }
  const loopback = isLoopback(parsed.hostname)
  if (parsed.protocol === 'https:') {
    if (mode === 'live' && loopback) {
      throw tableError('url_invalid_live_loopback', { host: parsed.hostname }, { param })
    }
    return
  }
  if (parsed.protocol === 'http:') {
    if (mode === 'live') {
      throw tableError('url_invalid_live_http', {}, { param })
    }
    if (!loopback) {
      throw tableError('url_invalid_test_http', {}, { param })
    }
    return
  }
  throw tableError('url_invalid_scheme', { scheme: parsed.protocol }, { param })
}
