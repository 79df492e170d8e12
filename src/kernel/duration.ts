import { z } from 'zod'

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/g
const WHOLE = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h|d))+$/

/**
 * Parses a virtual-time duration: milliseconds as a number, or text such as `15m`, `2d`, `1h30m`,
 * `500ms`. Returns undefined when the text is not a duration.
 *
 * @example
 * parseDuration('1h30m') // 5_400_000
 * parseDuration(250) // 250
 */
export function parseDuration(value: number | string): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined
  const text = value.trim()
  if (/^\d+$/.test(text)) return Number(text)
  if (!WHOLE.test(text)) return undefined
  let total = 0
  for (const m of text.matchAll(PART)) total += Number(m[1]) * (UNIT_MS[m[2] as string] as number)
  return Math.round(total)
}

/**
 * Formats milliseconds as the shortest duration text `parseDuration` reads back.
 *
 * @example
 * formatDuration(5_400_000) // '1h30m'
 */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0ms'
  let rest = ms
  let out = ''
  for (const unit of ['d', 'h', 'm', 's', 'ms'] as const) {
    const size = UNIT_MS[unit] as number
    const n = Math.floor(rest / size)
    if (n > 0) {
      out += `${n}${unit}`
      rest -= n * size
    }
  }
  return out
}

let duration: ReturnType<typeof buildDurationSchema> | undefined

/**
 * Zod schema of a duration field: a non-negative number of ms or text like `15m`; parses to ms.
 * Built on first use, not when the kernel loads: a simulator made without durations in its options
 * never needs zod.
 *
 * @example
 * durationSchema().parse('2d') // 172_800_000
 * @internal
 */
export function durationSchema() {
  duration ??= buildDurationSchema()
  return duration
}

function buildDurationSchema() {
  return z
    .union([z.number().nonnegative(), z.string()])
    .transform((value, ctx) => {
      const ms = parseDuration(value)
      if (ms === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: 'expected a duration: milliseconds, or text such as 500ms, 30s, 15m, 2h, 3d, 1h30m',
        })
        return z.NEVER
      }
      return ms
    })
    .meta({ description: 'Virtual time: milliseconds, or text such as 500ms, 30s, 15m, 2h, 3d, 1h30m.' })
}
