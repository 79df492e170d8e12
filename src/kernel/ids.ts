import type { RandomStream } from './rng.js'

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

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
      let out = `${prefix}_`
      for (let i = 0; i < length; i++) out += ALPHABET[Math.floor(stream.next() * 62)]
      return out
    },
  }
}
