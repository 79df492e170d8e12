import type { Kernel } from '../kernel-parts.js'
import type { Admission, Gate } from '../limits/admission.js'
import { lockTimeout } from './lock-timeout.js'

interface Lock {
  /** Virtual time at which the last queued holder lets go. */
  freeAt: number
  holders: number
}

/**
 * A lock taken by an internal process: when it starts holding, when it lets go.
 *
 * @example
 * const held: InternalLock = service.locks.acquire('mtr_1', 'meter.process', 50)
 */
export interface InternalLock {
  readonly objectId: string
  readonly start: number
  readonly end: number
  /** Lets go early (at the current virtual time) if nobody queued behind it. */
  release(): void
}

/**
 * Object locks on the virtual clock. Each lock is a queue summarised by the time its last holder
 * lets go: a mutation arriving at `now` would start holding at `max(now, freeAt)`, and if that is
 * more than the lock wait time away it is refused with `lock_timeout` and nothing is processed.
 * Otherwise it queues and holds for its service time. Internal processes (meter processing,
 * delivery bookkeeping) queue the same way through `acquire`; a fault can make an internal holder
 * keep a lock with `holdInternally`.
 *
 * With the default zero service time a request holds a lock for no virtual time, so concurrent
 * mutations of one object serialise without timing out; only holders that outlast the wait
 * (internal holds, long service times, long queues) produce `lock_timeout`.
 *
 * @example
 * service.locks.holdInternally('cus_123', 5_000) // a request at now is refused with lock_timeout
 * const held = service.locks.acquire('mtr_1', 'meter.process', 50)
 * scheduler.at(held.end, 'meter.process', () => { process(); held.release() })
 */
export interface LockManager {
  readonly gate: Gate
  readonly waitMs: number
  acquire(objectId: string, holder: string, durationMs: number): InternalLock
  /** Fault hook: an internal holder keeps `objectId` locked for `durationMs` from now. */
  holdInternally(objectId: string, durationMs: number): void
  /** When the lock on `objectId` is free again; undefined when it is free now. */
  heldUntil(objectId: string): number | undefined
  readonly size: number
}

/**
 * Lock wait and how long a request holds its lock.
 *
 * @example
 * createLockManager(kernel, { waitMs: 2000, requestHoldMs: 0 })
 */
export interface LockManagerOptions {
  readonly waitMs: number
  /** Virtual time a request holds its lock: the simulator's service time (a range counts as its max). */
  readonly requestHoldMs: number
}

const SWEEP_EVERY = 1024

/**
 * Creates the lock manager of one service (see {@link LockManager}).
 *
 * @example
 * const locks = createLockManager(kernel, { waitMs: DEFAULT_LOCK_WAIT_MS, requestHoldMs: 0 })
 */
export function createLockManager(kernel: Kernel, options: LockManagerOptions): LockManager {
  const t: LockTable = {
    kernel,
    waitMs: options.waitMs,
    requestHoldMs: options.requestHoldMs,
    locks: new Map(),
    touches: 0,
  }
  registerLockTable(t)
  return {
    gate: (admission) => admitMutation(t, admission),
    waitMs: options.waitMs,
    acquire: (objectId, holder, durationMs) => acquireLock(t, objectId, holder, durationMs),
    holdInternally: (objectId, durationMs) => holdInternally(t, objectId, durationMs),
    heldUntil(objectId) {
      const freeAt = t.locks.get(objectId)?.freeAt
      return freeAt === undefined || freeAt <= kernel.clock.now ? undefined : freeAt
    },
    get size() {
      return t.locks.size
    },
  }
}

/** The locks held or queued on, by object id, and what a lock manager runs on. */
interface LockTable {
  readonly kernel: Kernel
  readonly waitMs: number
  readonly requestHoldMs: number
  readonly locks: Map<string, Lock>
  touches: number
}

function registerLockTable(t: LockTable): void {
  const { locks } = t
  t.kernel.state.register('locks', {
    save() {
      return { touches: t.touches, locks: [...locks].map(([id, l]) => [id, l.freeAt, l.holders]) }
    },
    load(data) {
      const saved = data as { touches: number; locks: [string, number, number][] }
      t.touches = saved.touches
      locks.clear()
      for (const [id, freeAt, holders] of saved.locks) locks.set(id, { freeAt, holders })
    },
  })
}

/** A mutation's admission: refused when its object's lock is not free within the wait, else queued. */
function admitMutation(t: LockTable, admission: Admission): void | (() => void) {
  const objectId = admission.objectId
  if (!admission.mutates || objectId === undefined) return
  const { kernel } = t
  const now = kernel.clock.now
  const freeAt = t.locks.get(objectId)?.freeAt ?? now
  if (freeAt - now > t.waitMs) {
    kernel.trace.append('lock.timeout', { object: objectId, operation: admission.operation, free_at: freeAt })
    throw lockTimeout(objectId, kernel.prefix)
  }
  const { lock, end } = take(t, objectId, now, t.requestHoldMs)
  let released = false
  return () => {
    if (released) return
    released = true
    letGo(t, objectId, lock, end)
  }
}

function acquireLock(t: LockTable, objectId: string, holder: string, durationMs: number): InternalLock {
  const { lock, start, end } = take(t, objectId, t.kernel.clock.now, Math.max(0, durationMs))
  t.kernel.trace.append('lock.acquired', { object: objectId, holder, start, end })
  let released = false
  return {
    objectId,
    start,
    end,
    release() {
      if (released) return
      released = true
      letGo(t, objectId, lock, end)
    },
  }
}

function holdInternally(t: LockTable, objectId: string, durationMs: number): void {
  const now = t.kernel.clock.now
  let lock = t.locks.get(objectId)
  if (lock === undefined) {
    lock = { freeAt: now, holders: 0 }
    t.locks.set(objectId, lock)
  }
  lock.freeAt = Math.max(lock.freeAt, now + Math.max(0, durationMs))
  t.kernel.trace.append('lock.held', { object: objectId, until: lock.freeAt })
}

function take(t: LockTable, objectId: string, now: number, duration: number): { lock: Lock; start: number; end: number } {
  const locks = t.locks
  if (++t.touches % SWEEP_EVERY === 0) {
    for (const [id, lock] of locks) if (lock.freeAt <= now) locks.delete(id)
  }
  let lock = locks.get(objectId)
  if (lock === undefined) {
    lock = { freeAt: now, holders: 0 }
    locks.set(objectId, lock)
  }
  const start = Math.max(now, lock.freeAt)
  const end = start + duration
  lock.freeAt = end
  lock.holders++
  return { lock, start, end }
}

function letGo(t: LockTable, objectId: string, lock: Lock, end: number): void {
  const now = t.kernel.clock.now
  lock.holders--
  // The last holder in the queue leaving early frees the lock now, not at its planned end.
  if (lock.freeAt === end && end > now) lock.freeAt = now
  if (lock.holders <= 0 && lock.freeAt <= now && t.locks.get(objectId) === lock) t.locks.delete(objectId)
}
