import { callerNow } from '#kernel/wall-clock.js'
import type { Simulator } from '#simulator/create-simulator.js'

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

export function createWallDriver(sim: Simulator, options: WallDriverOptions = {}): WallDriver {
  const speed = options.speed ?? 1
  if (!(speed > 0 && Number.isFinite(speed))) throw new TypeError(`wall driver: speed must be a positive number, got ${speed}`)
  const realNow = options.realNow ?? callerNow
  const intervalMs = options.intervalMs ?? 50
  let current = sim
  let realBase = realNow()
  let virtualBase = sim.clock.now
  let timer: ReturnType<typeof setInterval> | undefined
  // The tail of the chain of clock moves: every move starts after the previous one ended.
  let tail: Promise<unknown> = Promise.resolve()
  let catchingUp: Promise<void> | undefined
  // Clock moves queued or running; `trySync` only acts when there are none.
  let busy = 0
  let jumps = 0

  const target = () => virtualBase + Math.floor((realNow() - realBase) * speed)

  async function catchUp(): Promise<void> {
    const { clock } = current
    // Bounded: each round either ends or fires at least one timer.
    for (let round = 0; round < 10_000; round++) {
      // Ahead already (time travel, or the wall clock stepped back: the lead is kept), or nothing
      // but the scheduler's own two timers and nothing due on the way: a plain jump, no real-time yield.
      if (plainCatchUp()) return
      await clock.tickAsync(Math.max(0, target() - clock.now))
    }
  }

  function serial<T>(work: () => Promise<T>): Promise<T> {
    busy++
    const run = tail.then(work, work).finally(() => {
      busy--
    })
    tail = run.catch(() => undefined)
    return run
  }

  /** The catch-up without timers: true when the clock is now at (or ahead of) wall time. */
  function plainCatchUp(): boolean {
    const { clock } = current
    const goal = target()
    if (goal <= clock.now) {
      if (goal < clock.now) virtualBase += clock.now - goal
      return true
    }
    const next = current.service.kernel.scheduler.nextDue()
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

  const driver: WallDriver = {
    speed,
    get jumping() {
      return jumps > 0
    },
    trySync: () => busy === 0 && plainCatchUp(),
    sync() {
      catchingUp ??= serial(catchUp).finally(() => {
        catchingUp = undefined
      })
      return catchingUp
    },
    jump(move) {
      return serial(async () => {
        await catchUp()
        jumps++
        let result: Awaited<ReturnType<typeof move>>
        try {
          result = await move()
        } finally {
          jumps--
        }
        // Whatever the jump did, virtual time now runs on from here.
        const goal = target()
        if (current.clock.now > goal) virtualBase += current.clock.now - goal
        return result
      })
    },
    attach(next) {
      current = next
      realBase = realNow()
      virtualBase = next.clock.now
    },
    start() {
      if (timer !== undefined) return
      timer = setInterval(() => {
        driver.sync().catch((error: unknown) => {
          process.stderr.write(`service-sim: wall clock catch-up failed: ${(error as Error)?.stack ?? String(error)}\n`)
        })
      }, intervalMs)
      timer.unref()
    },
    stop() {
      if (timer !== undefined) clearInterval(timer)
      timer = undefined
    },
  }
  return driver
}
