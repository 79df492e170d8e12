import type { Kernel } from '#domain/kernel-parts.js'
import { nextMacrotask } from '#kernel/macrotask.js'
import type { InFlightRequest } from '#kernel/request-timeline.js'

/**
 * When an answered request is handed back: at the next macrotask, or after a service time in
 * virtual milliseconds, during which the handler drives the clock itself so the caller need not.
 *
 * @example
 * const delay = new AnswerDelay(kernel, (flight) => 40)
 * await delay.after(flight) // 40 virtual ms later
 */
export class AnswerDelay {
  readonly #kernel: Kernel
  readonly #serviceTime: ((request: InFlightRequest) => number) | undefined
  #waiting = 0
  #driving = false

  constructor(kernel: Kernel, serviceTime: ((request: InFlightRequest) => number) | undefined) {
    this.#kernel = kernel
    this.#serviceTime = serviceTime
  }

  // Not async itself: the common answer (no service time) is the macrotask's own promise.
  after(flight: InFlightRequest): Promise<void> {
    const delay = this.#serviceTime?.(flight) ?? 0
    return delay <= 0 ? nextMacrotask() : this.#later(delay)
  }

  async #later(delay: number): Promise<void> {
    this.#waiting++
    await new Promise<void>((resolve) => {
      this.#kernel.scheduler.after(delay, 'http.respond', resolve)
      void this.#drive()
    })
    this.#waiting--
  }

  async #drive(): Promise<void> {
    if (this.#driving) return
    this.#driving = true
    const kernel = this.#kernel
    try {
      while (this.#waiting > 0) {
        await nextMacrotask()
        const due = kernel.scheduler.nextDue()
        if (this.#waiting === 0 || due === undefined) break
        // Work already due runs directly: fake-timers arms a 0 ms timer set during a tick 1 ms
        // late, so ticking 0 ms would never reach it.
        try {
          if (due <= kernel.clock.now) await kernel.scheduler.settle()
          else await kernel.clock.tickAsync(due - kernel.clock.now)
        } catch (error) {
          // A client's own timer threw during the tick (the scheduler's tasks never do): the
          // requests waiting on this clock must still be answered, so note it and go on.
          kernel.trace.append('clock.timer_failed', { message: error instanceof Error ? error.message : String(error) })
        }
      }
    } finally {
      this.#driving = false
    }
  }
}
