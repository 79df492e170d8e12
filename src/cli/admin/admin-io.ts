import { declaredError } from '#http/index.js'
import { isoTime } from '#kernel/index.js'

/**
 * A JSON answer of the admin API (pretty-printed: people read it with curl).
 *
 * @example
 * return json(200, { now: '2026-01-01T00:00:00.000Z' })
 */
export const json = (status: number, body: unknown): Response =>
  new Response(`${JSON.stringify(body, null, 2)}\n`, { status, headers: { 'Content-Type': 'application/json' } })

/**
 * A refusal in the API's error envelope (`declaredError`); the code follows from the status.
 *
 * @example
 * return fail(404, "meter: no such meter 'mtr_x'", 'meter')
 */
export const fail = (status: number, message: string, param?: string): Response =>
  json(status, declaredError(status, message, param).toJSON())

/**
 * Reads at most `limit` bytes of a body, and stops (without reading the rest) once it is over.
 *
 * @example
 * const text = await readLimited(req.body, MAX_BODY_BYTES) // undefined when too large
 */
export async function readLimited(body: ReadableStream<Uint8Array> | null, limit: number): Promise<string | undefined> {
  if (body === null) return ''
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel()
      return undefined
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * Epoch ms as an ISO time, `null` for none.
 *
 * @example
 * iso(0) // '1970-01-01T00:00:00.000Z'
 */
export const iso = (ms: number | null | undefined): string | null => (ms === null || ms === undefined ? null : isoTime(ms))
