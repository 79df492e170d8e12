/**
 * Time formats of the spec: ISO 8601 UTC with millisecond precision for `/v2` timestamps, whole
 * unix seconds for `/v1` objects and signatures.
 *
 * @example
 * isoTime(0) // '1970-01-01T00:00:00.000Z'
 * unixSeconds(1999) // 1
 */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString()
}

export function unixSeconds(ms: number): number {
  return Math.floor(ms / 1000)
}

export const SECOND = 1000
export const MINUTE = 60 * SECOND
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR
