/** A decoded form value: text, or the nested objects and lists bracketed keys make. */
type FormValue = string | FormObject | FormValue[]
interface FormObject {
  [key: string]: FormValue
}

/** The keys of `a[b][0]`: `['a', 'b', '0']`. */
function keyPath(key: string): string[] {
  const open = key.indexOf('[')
  if (open === -1) return [key]
  const rest = [...key.slice(open).matchAll(/\[([^\]]*)\]/g)].map((m) => m[1] ?? '')
  return [key.slice(0, open), ...rest]
}

/** Sets `value` at `path` under `target`, making lists where the next key is an index (or empty). */
function place(target: FormObject | FormValue[], path: readonly string[], value: string): void {
  const [head, ...rest] = path
  if (head === undefined) return
  const slot = Array.isArray(target) ? (head === '' ? target.length : Number(head)) : head
  const holder = target as unknown as Record<string | number, FormValue>
  if (rest.length === 0) {
    holder[slot] = value
    return
  }
  const next = rest[0] ?? ''
  if (holder[slot] === undefined || typeof holder[slot] === 'string') holder[slot] = next === '' || /^\d+$/.test(next) ? [] : {}
  place(holder[slot] as FormObject | FormValue[], rest, value)
}

/**
 * A form-encoded body (`email=a%40b.c&metadata[plan]=pro&items[0][price]=price_1`) as the nested
 * object the official client takes, values as text (the client encodes numbers as text anyway).
 *
 * @example
 * formObject('metadata[plan]=pro') // { metadata: { plan: 'pro' } }
 */
export function formObject(body: string): Record<string, unknown> {
  const out: FormObject = {}
  for (const [key, value] of new URLSearchParams(body)) place(out, keyPath(key), value)
  return out
}
