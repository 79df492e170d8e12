import { HarnessInputError, shownValue } from '../validate-input.js'

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
      `${api}: the effect kind must be a non-empty string (what env.effects.record names), got ${shownValue(required.kind)}`,
    )
  if ('types' in required) {
    const t = required.types
    if (!Array.isArray(t) || t.length === 0 || !t.every((x) => typeof x === 'string' && x !== ''))
      throw new HarnessInputError(`${api}: the event types must be a non-empty array of strings, got ${shownValue(t)}`)
  }
  for (const [name, fn] of Object.entries(required.fns ?? {}))
    if (typeof fn !== 'function') throw new HarnessInputError(`${api}: '${name}' must be a function, got ${shownValue(fn)}`)
  if (options === undefined) return
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new HarnessInputError(`${api}: options must be an object, got ${shownValue(options)}`)
  const name = (options as { name?: unknown }).name
  if (name !== undefined && (typeof name !== 'string' || name === ''))
    throw new HarnessInputError(`${api}: option 'name' must be a non-empty string, got ${shownValue(name)}`)
}
