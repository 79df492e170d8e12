/**
 * A stable 32-bit seed from a test's name (FNV-1a over its UTF-8 bytes): the same name gives the
 * same seed in every process and on every machine, and renaming a test gives it a new one.
 *
 * @example
 * seedFromName('billing > reports usage once') // always the same number
 */
export function seedFromName(name: string): number {
  let hash = 0x811c9dc5
  for (const byte of new TextEncoder().encode(name)) {
    hash ^= byte
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash
}
