import type { DurableStore, StoredValue } from '../durable-store.js'

/**
 * Makes two handlers of one app meet at their first database access, in a chosen order: the
 * leader's first store operation takes effect at once but its answer is held (a slow database)
 * until the follower has reached its own first store operation (or finished), then both go on
 * interleaved. A check-then-set across the two (read "not fulfilled", await, write) then reads
 * the same "not fulfilled" twice, as it does when a browser's success page and the provider's
 * webhook hit a real app together; an atomic claim (`store.update`) still wins once.
 *
 * @example
 * const gate = new RaceGate()
 * const store = gate.wrap(env.store)
 * gate.lead() // the next store operation is the leader's, held until the follower's first
 */
export class RaceGate {
  private phase: 'idle' | 'leading' | 'held' | 'following' = 'idle'
  private release: (() => void) | undefined
  private onHeld: (() => void) | undefined

  /** The leader starts now: its first store operation is held; `onHeld` runs when it is. */
  lead(onHeld?: () => void): void {
    this.phase = 'leading'
    this.onHeld = onHeld
  }

  /** Whether the leader is held at its first store operation. */
  get held(): boolean {
    return this.phase === 'held'
  }

  /** The follower starts now: its first store operation releases the leader. */
  follow(): void {
    if (this.phase === 'held') this.phase = 'following'
  }

  /** Ends the race: the leader, if held, goes on. */
  open(): void {
    this.phase = 'idle'
    const release = this.release
    this.release = undefined
    release?.()
  }

  private pass<T>(result: Promise<T>): Promise<T> {
    if (this.phase === 'leading') {
      this.phase = 'held'
      const held = new Promise<T>((resolve, reject) => {
        this.release = () => result.then(resolve, reject)
      })
      const onHeld = this.onHeld
      this.onHeld = undefined
      onHeld?.()
      return held
    }
    if (this.phase === 'following') this.open()
    return result
  }

  /** `store` with every operation passing through the gate. */
  wrap(store: DurableStore): DurableStore {
    return {
      get: (key) => this.pass(store.get(key)),
      set: (key, value) => this.pass(store.set(key, value)),
      delete: (key) => this.pass(store.delete(key)),
      has: (key) => this.pass(store.has(key)),
      keys: (prefix) => this.pass(store.keys(prefix)),
      update: (key, change: (previous: StoredValue | undefined) => StoredValue | undefined) =>
        this.pass(store.update(key, change)),
    }
  }
}
