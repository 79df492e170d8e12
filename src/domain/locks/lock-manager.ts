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
  return new ObjectLocks(kernel, options)
}

/** The locks held or queued on, by object id. */
class ObjectLocks implements LockManager {
  readonly waitMs: number
  /** Handed on alone (the service's gate list), so bound once here. */
  readonly gate: Gate = (admission) => this.#admit(admission)
  readonly #kernel: Kernel
  readonly #requestHoldMs: number
  readonly #locks = new Map<string, Lock>()
  #touches = 0

  constructor(kernel: Kernel, options: LockManagerOptions) {
    this.#kernel = kernel
    this.waitMs = options.waitMs
    this.#requestHoldMs = options.requestHoldMs
    const locks = this.#locks
    kernel.state.register('locks', {
      save: () => {
        return { touches: this.#touches, locks: [...locks].map(([id, l]) => [id, l.freeAt, l.holders]) }
      },
      load: (data) => {
        const saved = data as { touches: number; locks: [string, number, number][] }
        this.#touches = saved.touches
        locks.clear()
        for (const [id, freeAt, holders] of saved.locks) locks.set(id, { freeAt, holders })
      },
    })
  }

  get size(): number {
    return this.#locks.size
  }

  acquire(objectId: string, holder: string, durationMs: number): InternalLock {
    const { lock, start, end } = this.#take(objectId, this.#kernel.clock.now, Math.max(0, durationMs))
    this.#kernel.trace.append('lock.acquired', { object: objectId, holder, start, end })
    let released = false
    return {
      objectId,
      start,
      end,
      release: () => {
        if (released) return
        released = true
        this.#letGo(objectId, lock, end)
      },
    }
  }

  holdInternally(objectId: string, durationMs: number): void {
    const now = this.#kernel.clock.now
    let lock = this.#locks.get(objectId)
    if (lock === undefined) {
      lock = { freeAt: now, holders: 0 }
      this.#locks.set(objectId, lock)
    }
    lock.freeAt = Math.max(lock.freeAt, now + Math.max(0, durationMs))
    this.#kernel.trace.append('lock.held', { object: objectId, until: lock.freeAt })
  }

  heldUntil(objectId: string): number | undefined {
    const freeAt = this.#locks.get(objectId)?.freeAt
    return freeAt === undefined || freeAt <= this.#kernel.clock.now ? undefined : freeAt
  }

  #admit(admission: Admission): void | (() => void) {
    const objectId = admission.objectId
    if (!admission.mutates || objectId === undefined) return
    const kernel = this.#kernel
    const now = kernel.clock.now
    const freeAt = this.#locks.get(objectId)?.freeAt ?? now
    if (freeAt - now > this.waitMs) {
      kernel.trace.append('lock.timeout', { object: objectId, operation: admission.operation, free_at: freeAt })
      throw lockTimeout(objectId, kernel.prefix)
    }
    const { lock, end } = this.#take(objectId, now, this.#requestHoldMs)
    let released = false
    return () => {
      if (released) return
      released = true
      this.#letGo(objectId, lock, end)
    }
  }

  #take(objectId: string, now: number, duration: number): { lock: Lock; start: number; end: number } {
    const locks = this.#locks
    if (++this.#touches % SWEEP_EVERY === 0) {
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

  #letGo(objectId: string, lock: Lock, end: number): void {
    const now = this.#kernel.clock.now
    lock.holders--
    // The last holder in the queue leaving early frees the lock now, not at its planned end.
    if (lock.freeAt === end && end > now) lock.freeAt = now
    if (lock.holders <= 0 && lock.freeAt <= now && this.#locks.get(objectId) === lock) this.#locks.delete(objectId)
  }
}
