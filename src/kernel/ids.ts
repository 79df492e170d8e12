import { Buffer } from 'node:buffer'
import type { RandomStream } from './rng.js'

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const UNDERSCORE = 0x5f
const ALPHABET_CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0))
// Ids are built here one at a time (nothing awaits in between), so one buffer serves them all.
const scratch = Buffer.alloc(128)

/**
 * Deterministic ids in the provider's shapes: a prefix, an underscore, then base-62 characters
 * drawn from the `ids` random stream (`cus_NffrFeUfNV2Hib`, `whsec_…`, `req_…`).
 *
 * @example
 * const ids = createIds(createRng(1).stream('ids'))
 * ids.next('cus') // 'cus_…' with 14 characters after the prefix
 */
export interface Ids {
  next(prefix: string, length?: number): string
}

export function createIds(stream: RandomStream): Ids {
  return {
    next(prefix, length = 14) {
      // One flat string made at once: appending a character at a time leaves a chain of rope
      // nodes that every stored id keeps alive and every map lookup by id must flatten first.
      const size = prefix.length + 1 + length
      const bytes = size <= scratch.length ? scratch : Buffer.alloc(size)
      const written = bytes.write(prefix, 0, 'latin1')
      bytes[written] = UNDERSCORE
      for (let i = 0; i < length; i++) bytes[written + 1 + i] = ALPHABET_CODES[Math.floor(stream.next() * 62)] as number
      return bytes.toString('latin1', 0, written + 1 + length)
    },
  }
}
