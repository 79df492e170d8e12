/**
 * A virtual time as the dashboard shows it: UTC, to the millisecond, without the `T` and `Z`.
 *
 * @example
 * virtualTime(0) // '1970-01-01 00:00:00.000'
 */
export function virtualTime(ms: number | string | null | undefined): string {
  if (ms === null || ms === undefined) return '—'
  const date = new Date(ms)
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString().replace('T', ' ').replace('Z', '')
}

/**
 * A body made readable: JSON pretty-printed, anything else (form bodies) as it came.
 *
 * @example
 * readableBody('{"a":1}') // '{\n  "a": 1\n}'
 */
export function readableBody(body: string): string {
  if (body === '') return '(empty)'
  try {
    return JSON.stringify(JSON.parse(body), null, 2)
  } catch {
    return body
  }
}

/**
 * The class that colours a status: delivered or 2xx, failed or 4xx/5xx, pending.
 *
 * @example
 * statusClass(500) // 'status-bad'
 */
export function statusClass(status: number | string | null): string {
  if (status === 'Delivered' || (typeof status === 'number' && status >= 200 && status < 300)) return 'status-ok'
  if (status === 'Pending') return 'status-wait'
  return 'status-bad'
}
