import { cloneData } from './clone-data.js'

// Sealed objects, each with its JSON text once asked for (undefined until then). Weak: a sealed
// object dropped by every store is collected with its text.
const texts = new WeakMap<object, string | undefined>()

// Set in the test suite (vitest.config.ts): every sealed object is deep-frozen, so a change in
// place anywhere throws where it happens instead of going unnoticed.
const FREEZE = typeof process !== 'undefined' && process.env.SERVICE_SIM_FREEZE_SEALED === '1'

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return
  Object.freeze(value)
  for (const member of Object.values(value)) deepFreeze(member)
}

/**
 * Marks plain data as never to be changed in place again (the resource engine replaces an object
 * on every change): events may then hold it instead of a deep copy, and its JSON text is made
 * once and reused for every answer that returns it. A fork shares sealed objects, as it always
 * shared the engine's objects.
 *
 * @example
 * seal(customer)
 * jsonOf(customer) === jsonOf(customer) // the same string, stringified once
 */
export function seal<T extends object>(value: T): T {
  if (FREEZE) deepFreeze(value)
  if (!texts.has(value)) texts.set(value, undefined)
  return value
}

/**
 * `JSON.stringify(value)`, made once per sealed object.
 *
 * @example
 * const text = jsonOf({ id: 'cus_1' }) // '{"id":"cus_1"}'
 */
export function jsonOf(value: unknown): string {
  if (typeof value !== 'object' || value === null || !texts.has(value)) return JSON.stringify(value)
  let text = texts.get(value)
  if (text === undefined) {
    text = JSON.stringify(value)
    texts.set(value, text)
  }
  return text
}

/**
 * The value itself when sealed (it cannot change any more), else a deep copy (`cloneData`): what
 * an event snapshot keeps of an object.
 *
 * @example
 * const frozen = copyUnlessSealed(object)
 */
export function copyUnlessSealed<T>(value: T): T {
  return typeof value === 'object' && value !== null && texts.has(value) ? value : cloneData(value)
}
