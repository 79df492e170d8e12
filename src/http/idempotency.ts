import type { Kernel } from '#domain/kernel-parts.js'
import { tableError } from '#domain/service-error.js'
import { DAY } from '#kernel/time.js'

/** A stored first response, replayed for a repeat of the same key. */
export interface StoredResponse {
  readonly status: number
  readonly text: string
  readonly requestId: string
}

interface Record_ {
  readonly fingerprint: string
  readonly expires: number
  response: StoredResponse | undefined
}

/**
 * `Idempotency-Key` handling: the first response to a key is kept for 24 hours of virtual time and
 * replayed for a repeat with the same parameters; the same key with other parameters is a 400
 * `idempotency_error`, and a repeat while the first is still in flight is a 409. Keys are scoped to
 * the account and mode, and forgotten after 24 hours so memory stays bounded.
 *
 * @example
 * const hit = idempotency.begin(scopeKey, key, fingerprint) // undefined: go ahead and run it
 * idempotency.complete(scopeKey, key, { status: 200, text, requestId })
 */
export interface IdempotencyStore {
  begin(scope: string, key: string, fingerprint: string): StoredResponse | undefined
  complete(scope: string, key: string, response: StoredResponse): void
  /** Forgets an in-progress key whose request was refused before it ran, so a retry may run. */
  abandon(scope: string, key: string): void
  readonly size: number
}

export function createIdempotencyStore(kernel: Kernel): IdempotencyStore {
  const records = new Map<string, Record_>()
  kernel.state.register('idempotency', {
    save: () => [...records].map(([id, r]) => [id, r.fingerprint, r.expires, r.response ?? null]),
    load(data) {
      records.clear()
      for (const [id, fingerprint, expires, response] of data as [string, string, number, StoredResponse | null][]) {
        records.set(id, { fingerprint, expires, response: response ?? undefined })
      }
    },
  })
  // Insertion order is expiry order, since every key lives exactly 24 hours.
  function evict(now: number): void {
    for (const [k, r] of records) {
      if (r.expires > now) break
      records.delete(k)
    }
  }
  return {
    begin(scope, key, fingerprint) {
      const now = kernel.clock.now
      evict(now)
      const id = `${scope}|${key}`
      const existing = records.get(id)
      if (existing === undefined) {
        records.set(id, { fingerprint, expires: now + DAY, response: undefined })
        return undefined
      }
      if (existing.fingerprint !== fingerprint) {
        throw tableError('idempotency_key_in_use', { key })
      }
      if (existing.response === undefined) {
        throw tableError('idempotency_key_in_progress', { key })
      }
      return existing.response
    },
    complete(scope, key, response) {
      const r = records.get(`${scope}|${key}`)
      if (r !== undefined) r.response = response
    },
    abandon(scope, key) {
      const id = `${scope}|${key}`
      if (records.get(id)?.response === undefined) records.delete(id)
    },
    get size() {
      return records.size
    },
  }
}
