// Set in the test suite (vitest.config.ts): every sealed object is deep-frozen, so a change in
// place anywhere throws where it happens instead of going unnoticed.
const FREEZE = typeof process !== 'undefined' && process.env.SERVICE_SIM_FREEZE_SEALED === '1'

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return
  Object.freeze(value)
  for (const member of Object.values(value)) deepFreeze(member)
}

/**
 * Declares plain data never to be changed in place again (the resource engine replaces an object
 * on every change, so a fork, an event and an answer may all hold the same one). Nothing is done
 * at run time: freezing costs more than the copies it saves. The test suite sets
 * `SERVICE_SIM_FREEZE_SEALED=1`, which deep-freezes every sealed object, so a change in place
 * throws there.
 *
 * @example
 * store.add(scope, seal(customer))
 */
export function seal<T extends object>(value: T): T {
  if (FREEZE) deepFreeze(value)
  return value
}

// Sealed objects given as answers that repeat (retrieves): null until their JSON is made, then the
// text. Objects only answered by the request that made them are not kept here: keeping every
// text would hold as much memory again as the objects. Weak: collected with the object.
const texts = new WeakMap<object, string | null>()

/**
 * Marks a sealed object as an answer that may be given again (a retrieve): `jsonOf` makes its
 * text once and keeps it.
 *
 * @example
 * return sealedAnswer(store.get(scope, id))
 */
export function sealedAnswer<T extends object>(value: T): T {
  if (!texts.has(value)) texts.set(value, null)
  return value
}

/**
 * Whether an object was marked by `sealedAnswer`: an answer that may be given again, so work
 * derived from it (its text, a rendering at another version) is worth keeping.
 *
 * @example
 * isSealedAnswer(sealedAnswer(store.get(scope, id))) // true
 */
export function isSealedAnswer(value: object): boolean {
  return texts.has(value)
}

/**
 * `JSON.stringify(value)`; for an object marked by `sealedAnswer`, made once and kept.
 *
 * @example
 * const text = jsonOf({ id: 'cus_1' }) // '{"id":"cus_1"}'
 */
export function jsonOf(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value)
  const known = texts.get(value)
  if (known !== undefined && known !== null) return known
  const text = JSON.stringify(value)
  if (known === null) texts.set(value, text)
  return text
}
