import { HarnessInputError } from '../validate-input.js'

/**
 * Checks a rule builder's arguments where the user writes them: a rule built from a missing kind or
 * a predicate that is not a function would otherwise fail deep inside a run, or never fire.
 *
 * @example
 * ruleInput('atMostOnce', { kind: 'email.welcome' }, { name: undefined })
 */
export function ruleInput(
  api: string,
  required: { readonly kind?: unknown; readonly types?: unknown; readonly fns?: Readonly<Record<string, unknown>> },
  options: unknown,
): void {
  if ('kind' in required && (typeof required.kind !== 'string' || required.kind === ''))
    throw new HarnessInputError(
      `${api}: the effect kind must be a non-empty string (what env.effects.record names), got ${show(required.kind)}`,
    )
  if ('types' in required) {
    const t = required.types
    if (!Array.isArray(t) || t.length === 0 || !t.every((x) => typeof x === 'string' && x !== ''))
      throw new HarnessInputError(`${api}: the event types must be a non-empty array of strings, got ${show(t)}`)
  }
  for (const [name, fn] of Object.entries(required.fns ?? {}))
    if (typeof fn !== 'function') throw new HarnessInputError(`${api}: '${name}' must be a function, got ${show(fn)}`)
  if (options === undefined) return
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new HarnessInputError(`${api}: options must be an object, got ${show(options)}`)
  const name = (options as { name?: unknown }).name
  if (name !== undefined && (typeof name !== 'string' || name === ''))
    throw new HarnessInputError(`${api}: option 'name' must be a non-empty string, got ${show(name)}`)
}

function show(value: unknown): string {
  if (typeof value === 'function') return 'a function'
  try {
    return String(JSON.stringify(value)).slice(0, 60)
  } catch {
    return String(value)
  }
}
