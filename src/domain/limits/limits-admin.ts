import type { Mode } from '../mode.js'
import type { Service } from '../service.js'
import type { LimitRow } from './limit-row.js'

/**
 * Admin methods of limits and locks: inspect the table and read allocations, and make an internal
 * process hold an object lock (the fault a harness injects to produce `lock_timeout`).
 *
 * @example
 * sim.admin.holdLock('cus_123', 5_000) // mutations of cus_123 in the next 3 s get 429 lock_timeout
 * sim.admin.readsUsed(sim.platform.id, 'test') // GETs counted in the rolling 30 days
 */
export interface LimitsAdmin {
  /** The limit table in force (empty when limits are off). */
  limitRows(): readonly LimitRow[]
  /** GETs counted against an allocation: the account's own, or (`onBehalf`) a platform's for its connected accounts. */
  readsUsed(account: string, mode: Mode, onBehalf?: boolean): number
  /** An internal process holds the lock on `objectId` for `durationMs` of virtual time from now. */
  holdLock(objectId: string, durationMs: number): void
}

/**
 * Builds the limits part of `sim.admin`.
 *
 * @example
 * const admin = { ...createLimitsAdmin(service) }
 */
export function createLimitsAdmin(service: Service): LimitsAdmin {
  return {
    limitRows: () => service.limits?.rows ?? [],
    readsUsed: (account, mode, onBehalf = false) => service.limits?.readsUsed(account, mode, onBehalf) ?? 0,
    holdLock(objectId, durationMs) {
      if (!Number.isFinite(durationMs) || durationMs < 0) {
        throw new TypeError(`admin.holdLock: durationMs must be a finite number >= 0; got ${durationMs}`)
      }
      if (service.locks === undefined) throw new TypeError('admin.holdLock: object locks are off (limits: false)')
      service.locks.holdInternally(objectId, durationMs)
    },
  }
}
