import { callerNow } from '#kernel/index.js'
import type { Simulator } from '#simulator/index.js'

/** How `serve` moves virtual time: with the wall clock (at `speed`), or only when asked. */
export type ServeClock = { readonly mode: 'manual' } | { readonly mode: 'wall'; readonly speed: number }

/** Options of `createWallDriver`. */
export interface WallDriverOptions {
  /** Virtual milliseconds per real millisecond. Default 1. */
  readonly speed?: number
  /** Real milliseconds between catch-ups while idle. Default 50. */
  readonly intervalMs?: number
  /** The real-time source (epoch ms). Default the caller's `Date.now()`. */
  readonly realNow?: () => number
}

/**
 * Moves a simulator's virtual clock along with real time: virtual = start + (wall - wall at start)
 * x speed + offset, where `offset` grows by every jump made through `jump` (admin time travel), so
 * time travel stays ahead. Work due on the way (deliveries and retries, meter processing, session
 * and idempotency expiry) runs in due order, through the clock's own timers. Catch-ups are
 * serialised: the idle timer, each served request (`sync` before it is handled) and jumps never
 * move the clock at the same time. A catch-up never waits for a delivery in flight, so a webhook
 * receiver that calls back into the API while it answers cannot deadlock the server.
 *
 * @example
 * const driver = createWallDriver(sim, { speed: 60 })
 * driver.start()
 * await driver.sync() // sim.clock.now is the current virtual time
 */
export interface WallDriver {
  readonly speed: number
  /** True while a jump (`jump`) runs. */
  readonly jumping: boolean
  /** Catches the virtual clock up with wall time (one catch-up at a time; joins a running one). */
  sync(): Promise<void>
  /**
   * The same catch-up when it needs no timer to fire and nothing else is moving the clock: done
   * synchronously (no promise, the common case before a request). False: call `sync()`.
   */
  trySync(): boolean
  /** Runs `move` (a clock jump) with no catch-up in between, then keeps the clock that far ahead. */
  jump<T>(move: () => Promise<T>): Promise<T>
  /** Follows another simulator from its current virtual time on (after a reset). */
  attach(sim: Simulator): void
  /** Starts the idle timer (unref'd: it never keeps the process alive). */
  start(): void
  stop(): void
}

/** The driver of one served simulator (replaced by `attach` after a reset). */
class WallClockDriver implements WallDriver {
  readonly speed: number
  private readonly realNow: () => number
  private readonly intervalMs: number
  private current: Simulator
  private realBase: number
  private virtualBase: number
  private timer: ReturnType<typeof setInterval> | undefined
  // The tail of the chain of clock moves: every move starts after the previous one ended.
  private tail: Promise<unknown> = Promise.resolve()
  private catchingUp: Promise<void> | undefined
  // Clock moves queued or running; `trySync` only acts when there are none.
  private busy = 0
  private jumps = 0

  constructor(sim: Simulator, options: WallDriverOptions) {
    const speed = options.speed ?? 1
    if (!(speed > 0 && Number.isFinite(speed))) throw new TypeError(`wall driver: speed must be a positive number, got ${speed}`)
    this.speed = speed
    this.realNow = options.realNow ?? callerNow
    this.intervalMs = options.intervalMs ?? 50
    this.current = sim
    this.realBase = this.realNow()
    this.virtualBase = sim.clock.now
  }

  get jumping(): boolean {
    return this.jumps > 0
  }

  private target(): number {
    return this.virtualBase + Math.floor((this.realNow() - this.realBase) * this.speed)
  }

  private async catchUp(): Promise<void> {
    const { clock } = this.current
    // Bounded: each round either ends or fires at least one timer.
    for (let round = 0; round < 10_000; round++) {
      // Ahead already (time travel, or the wall clock stepped back: the lead is kept), or nothing
      // but the scheduler's own two timers and nothing due on the way: a plain jump, no real-time yield.
      if (this.plainCatchUp()) return
      await clock.tickAsync(Math.max(0, this.target() - clock.now))
    }
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    this.busy++
    const run = this.tail.then(work, work).finally(() => {
      this.busy--
    })
    this.tail = run.catch(() => undefined)
    return run
  }

  /** The catch-up without timers: true when the clock is now at (or ahead of) wall time. */
  private plainCatchUp(): boolean {
    const { clock } = this.current
    const goal = this.target()
    if (goal <= clock.now) {
      if (goal < clock.now) this.virtualBase += clock.now - goal
      return true
    }
    const next = this.current.service.kernel.scheduler.nextDue()
    if ((next === undefined || next > goal) && clock.countTimers() <= 2) {
      // A synchronous tick, not `clock.now = goal`: a timer the scheduler armed for a task since
      // cancelled (a delivery's time-out once answered) must fire on the way and re-arm for the next
      // task. Jumped over, it would stay behind the clock, where no tick ever fires it, and the
      // next task (a retry) would wait for someone's settle() instead of falling due by itself.
      clock.tick(goal - clock.now)
      return true
    }
    return false
  }

  trySync(): boolean {
    return this.busy === 0 && this.plainCatchUp()
  }

  sync(): Promise<void> {
    this.catchingUp ??= this.serial(() => this.catchUp()).finally(() => {
      this.catchingUp = undefined
    })
    return this.catchingUp
  }

  jump<T>(move: () => Promise<T>): Promise<T> {
    return this.serial(async () => {
      await this.catchUp()
      this.jumps++
      let result: Awaited<ReturnType<typeof move>>
      try {
        result = await move()
      } finally {
        this.jumps--
      }
      // Whatever the jump did, virtual time now runs on from here.
      const goal = this.target()
      if (this.current.clock.now > goal) this.virtualBase += this.current.clock.now - goal
      return result
    })
  }

  attach(next: Simulator): void {
    this.current = next
    this.realBase = this.realNow()
    this.virtualBase = next.clock.now
  }

  start(): void {
    if (this.timer !== undefined) return
    this.timer = setInterval(() => {
      this.sync().catch((error: unknown) => {
        process.stderr.write(`service-sim: wall clock catch-up failed: ${(error as Error)?.stack ?? String(error)}\n`)
      })
    }, this.intervalMs)
    this.timer.unref()
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer)
    this.timer = undefined
  }
}

/**
 * Creates the driver that moves `sim`'s virtual clock along with real time (see `WallDriver`).
 *
 * @example
 * const driver = createWallDriver(sim, { speed: 60 })
 */
export function createWallDriver(sim: Simulator, options: WallDriverOptions = {}): WallDriver {
  return new WallClockDriver(sim, options)
}
