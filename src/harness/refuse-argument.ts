import { HarnessInputError } from './harness-input-error.js'

/** The kinds of argument a harness export checks at its boundary, and how a refusal words each. */
const KINDS = {
  options: { wants: 'an options object (or nothing)', ok: (v: unknown) => v === undefined || isRecord(v) },
  object: { wants: 'an object', ok: isRecord },
  array: { wants: 'an array', ok: Array.isArray },
  string: { wants: 'a non-empty string', ok: (v: unknown) => typeof v === 'string' && v !== '' },
  function: { wants: 'a function', ok: (v: unknown) => typeof v === 'function' },
  simulator: {
    wants: 'a simulator (createSimulator)',
    ok: (v: unknown) => isRecord(v) && typeof v.fork === 'function' && isRecord(v.clock) && isRecord(v.service),
  },
  checker: {
    wants: 'a checker { name, check(history) }',
    ok: (v: unknown) => isRecord(v) && typeof v.name === 'string' && v.name !== '' && typeof v.check === 'function',
  },
  promise: { wants: 'a promise', ok: (v: unknown) => isRecord(v) && typeof v.then === 'function' },
  count: { wants: 'a positive integer', ok: (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 1 },
  integer: { wants: 'an integer', ok: Number.isSafeInteger },
  duration: {
    wants: 'a finite, non-negative number of milliseconds',
    ok: (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v >= 0,
  },
  history: {
    wants: 'a history { entries, requests, deliveries } (as a scenario run gives it)',
    ok: (v: unknown) => isRecord(v) && Array.isArray(v.entries) && Array.isArray(v.requests) && Array.isArray(v.deliveries),
  },
} as const

/** What `refuseArgument` can check. */
export type ArgumentKind = keyof typeof KINDS

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * A value as a refusal shows it after "got": never throws (a proxy or a cycle is "an object") and
 * never prints more than a few dozen characters of a huge string.
 */
function shown(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  switch (typeof value) {
    case 'string':
      return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)})`
    case 'number':
    case 'boolean':
    case 'bigint':
    case 'undefined':
      return String(value)
    case 'function':
      return 'a function'
    default:
      return 'an object'
  }
}

/**
 * Refuses an argument of the wrong kind with a `HarnessInputError` naming the export and the
 * argument, before the export reads it or changes anything: without it a wrong argument fails deep
 * inside with a `TypeError` naming neither, or runs on silently. A `typeof` or two: cheap enough
 * for exports called on every run of a property.
 *
 * @example
 * refuseArgument('drive', 'budgetMs', budgetMs, 'duration')
 * // HarnessInputError: drive: budgetMs must be a finite, non-negative number of milliseconds, got NaN
 */
export function refuseArgument(api: string, name: string, value: unknown, kind: ArgumentKind): void {
  const { wants, ok } = KINDS[kind]
  if (!ok(value)) throw new HarnessInputError(`${api}: ${name} must be ${wants}, got ${shown(value)}`)
}
