import { createHmac, timingSafeEqual } from 'node:crypto'
import { SIGNATURE_TOLERANCE_SECONDS } from '#catalogue/rules.js'
import { callerNow } from '#kernel/wall-clock.js'

/** Why a signature did not verify. */
export type SignatureErrorCode = 'missing_header' | 'no_v1_signature' | 'signature_mismatch' | 'timestamp_outside_tolerance'

/**
 * A failed webhook signature check. `code` tells which rule failed, so a receiver can log it and
 * answer 400.
 */
export class SignatureVerificationError extends Error {
  readonly code: SignatureErrorCode
  constructor(code: SignatureErrorCode, message: string) {
    super(message)
    this.name = 'SignatureVerificationError'
    this.code = code
  }
}

// The latest signatures made: a receiver verifying a delivery (with this module's verifier) asks for
// the very HMAC the sender just made, over the same bytes. A string compare of an identical body
// is a pointer compare, far cheaper than hashing it again.
const RECENT = 8
const recent: { timestamp: number; secret: string; body: string; hex: string }[] = []
let nextSlot = 0

/** HMAC-SHA256 hex of `<t>.<body>` with `secret`: the `v1` scheme. */
export function computeSignature(timestamp: number, body: string, secret: string): string {
  for (const r of recent) if (r.timestamp === timestamp && r.secret === secret && r.body === body) return r.hex
  // Two updates hash the same bytes as one of `<t>.<body>`, without first copying the body (kilobytes)
  // into a joined string.
  const hex = createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(body, 'utf8').digest('hex')
  recent[nextSlot] = { timestamp, secret, body, hex }
  nextSlot = (nextSlot + 1) % RECENT
  return hex
}

/** A value as a refusal names it: its type, or null or "an array". */
function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value
}

/** Secrets must be an array of strings (one secret as a string too, where `one` allows it). */
function refuseSecrets(api: string, secrets: unknown, listOnly: boolean): void {
  if (!Array.isArray(secrets) || !secrets.every((s) => typeof s === 'string'))
    throw new TypeError(
      `${api}: secret${listOnly ? 's' : ''} must be ${listOnly ? '' : 'a signing secret or '}an array of signing secrets (strings), got ${kindOf(secrets)}`,
    )
}

/**
 * Builds a signature header value: `t=<unix>`, one `v1=` per active secret, and on test events a
 * fake `v0=` that verifiers must ignore.
 *
 * @example
 * signatureHeader('{"id":"evt_1"}', ['whsec_abc'], 1767225600, { test: true })
 */
export function signatureHeader(
  body: string,
  secrets: readonly string[],
  timestamp: number,
  options: { test?: boolean } = {},
): string {
  if (typeof body !== 'string') throw new TypeError(`signatureHeader: body must be the raw body, a string, got ${kindOf(body)}`)
  refuseSecrets('signatureHeader', secrets, true)
  if (!Number.isSafeInteger(timestamp))
    throw new TypeError(`signatureHeader: timestamp must be an integer of unix seconds, got ${kindOf(timestamp)}`)
  const parts = [`t=${timestamp}`, ...secrets.map((s) => `v1=${computeSignature(timestamp, body, s)}`)]
  if (options.test) parts.push(`v0=${computeSignature(timestamp, body, 'v0-test-signature')}`)
  return parts.join(',')
}

export interface VerifyOptions {
  /** Seconds a signature stays acceptable; 0 disables the recency check. Default 300. */
  tolerance?: number
  /** Current time in epoch ms, e.g. `sim.clock.now`. Defaults to the caller's current time (the global `Date`). */
  now?: number
}

/**
 * Verifies a webhook delivery the way the official libraries do: parse `t` and every `v1`, compare
 * each in constant time against HMAC-SHA256 of `<t>.<raw body>`, then check the timestamp is within
 * `tolerance`. Returns the timestamp; throws SignatureVerificationError otherwise. The raw body must
 * be passed exactly as received.
 *
 * @example
 * const raw = await req.text()
 * verifySignature(raw, req.headers.get('Service-Signature'), secret, { now: sim.clock.now })
 */
export function verifySignature(
  rawBody: string | Uint8Array,
  header: string | null | undefined,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): number {
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array))
    throw new TypeError(`verifySignature: rawBody must be the raw body as received, a string or bytes, got ${kindOf(rawBody)}`)
  if (typeof secret !== 'string') refuseSecrets('verifySignature', secret, false)
  if (typeof options !== 'object' || options === null)
    throw new TypeError(`verifySignature: options must be an object, got ${kindOf(options)}`)
  if (header !== null && header !== undefined && typeof header !== 'string')
    throw new TypeError(`verifySignature: header must be the signature header's value (a string or null), got ${kindOf(header)}`)
  if (header === null || header === undefined || header.trim() === '') {
    throw new SignatureVerificationError('missing_header', 'No signature header found on the request.')
  }
  const body = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8')
  let timestamp = Number.NaN
  const signatures: string[] = []
  for (const part of header.split(',')) {
    const eq = part.indexOf('=')
    if (eq < 0) continue
    const name = part.slice(0, eq).trim()
    const value = part.slice(eq + 1).trim()
    if (name === 't') timestamp = Number(value)
    else if (name === 'v1') signatures.push(value)
  }
  if (!Number.isInteger(timestamp) || signatures.length === 0) {
    throw new SignatureVerificationError('no_v1_signature', 'Unable to extract a timestamp and v1 signatures from the header.')
  }
  const secrets = typeof secret === 'string' ? [secret] : secret
  const matched = secrets.some((s) => {
    const expected = Buffer.from(computeSignature(timestamp, body, s), 'utf8')
    return signatures.some((sig) => {
      const given = Buffer.from(sig, 'utf8')
      return given.length === expected.length && timingSafeEqual(given, expected)
    })
  })
  if (!matched) {
    throw new SignatureVerificationError(
      'signature_mismatch',
      'No signatures found matching the expected signature for payload. Are you passing the raw request body you received?',
    )
  }
  const tolerance = options.tolerance ?? SIGNATURE_TOLERANCE_SECONDS
  const now = Math.floor((options.now ?? callerNow()) / 1000)
  // Like the official libraries, only age counts: a timestamp from the (near) future is accepted.
  if (tolerance > 0 && now - timestamp > tolerance) {
    throw new SignatureVerificationError(
      'timestamp_outside_tolerance',
      `Timestamp outside the tolerance zone (${timestamp}, now ${now}).`,
    )
  }
  return timestamp
}
