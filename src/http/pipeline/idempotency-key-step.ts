import { tableError } from '#domain/service-error.js'
import type { PipelineContext } from './pipeline-context.js'

// What `Headers` accepts as a value once trimmed: a ByteString without control characters.
const NOT_ECHOABLE = /[^\t\x20-\x7e\x80-\xff]/

/**
 * Reads the `Idempotency-Key` header and refuses a key that is empty, too long or unprintable.
 * Checked before any gate or handler runs: the key is echoed on the response, and a value
 * `Headers` refuses would throw there, after the request had committed.
 *
 * @example
 * idempotencyKeyStep(ctx) // ctx.idempotencyKey; throws 400 idempotency_key_invalid for ''
 */
export function idempotencyKeyStep(ctx: PipelineContext): void {
  const key = ctx.incoming.headers.get('idempotency-key')
  if (key === null) return
  if (key.length === 0 || key.length > 255) {
    throw tableError('idempotency_key_invalid', {}, { param: 'Idempotency-Key' })
  }
  if (NOT_ECHOABLE.test(key)) {
    throw tableError('idempotency_key_unprintable', {}, { param: 'Idempotency-Key' })
  }
  ctx.idempotencyKey = key
}
