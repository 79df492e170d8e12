import { describe, expect, it } from 'vitest'
import { createSimulator } from '../../src/index.js'
import { createClock } from '../../src/kernel/clock.js'
import { createScheduler, MAX_TIMER_DELAY } from '../../src/kernel/scheduler.js'

const DAY = 86_400_000

function schedule(sim: ReturnType<typeof createSimulator>) {
  const start = sim.clock.now
  const ran: Record<string, number> = {}
  sim.service.kernel.scheduler.at(start + 31 * DAY, 'test.month', () => {
    ran.month = sim.clock.now
  })
  sim.service.kernel.scheduler.at(start + 365 * DAY, 'test.year', () => {
    ran.year = sim.clock.now
  })
  return { start, ran }
}

describe('waits longer than the 2^31-1 ms timer limit', () => {
  it('sim.clock.tickAsync runs a task 31 days and one 365 days ahead exactly at their due time', async () => {
    const sim = createSimulator({ seed: 1 })
    const { start, ran } = schedule(sim)
    await sim.clock.tickAsync(30 * DAY)
    expect(ran).toEqual({})
    await sim.clock.tickAsync(DAY - 1)
    expect(ran).toEqual({})
    await sim.clock.tickAsync(1)
    expect(ran).toEqual({ month: start + 31 * DAY })
    await sim.clock.tickAsync(300 * DAY)
    expect(ran.year).toBeUndefined()
    await sim.clock.tickAsync(34 * DAY - 1)
    expect(ran.year).toBeUndefined()
    await sim.clock.tickAsync(1)
    expect(ran).toEqual({ month: start + 31 * DAY, year: start + 365 * DAY })
    expect(sim.service.kernel.scheduler.pending).toBe(0)
  })

  it('sim.clock.runToLastAsync reaches a task a year ahead, and stops there', async () => {
    const sim = createSimulator({ seed: 1 })
    const { start, ran } = schedule(sim)
    await sim.clock.runToLastAsync()
    expect(ran).toEqual({ month: start + 31 * DAY, year: start + 365 * DAY })
    expect(sim.clock.now).toBe(start + 365 * DAY)
  })

  it('scheduler.advance and settle run long waits at their due time', async () => {
    const clock = createClock({ start: 0 })
    const s = createScheduler(clock)
    const log: number[] = []
    s.at(400 * DAY, 'far', () => void log.push(clock.now))
    s.at(40 * DAY, 'near', () => void log.push(clock.now))
    await s.advance(40 * DAY - 1)
    expect(log).toEqual([])
    await s.advance(Number.POSITIVE_INFINITY)
    expect(log).toEqual([40 * DAY, 400 * DAY])
    // A client timer on the way makes advance tick the clock instead of jumping it.
    clock.setTimeout(() => void log.push(-clock.now), 10 * DAY)
    s.at(clock.now + 100 * DAY, 'later', () => void log.push(clock.now))
    await s.advance(clock.now + 100 * DAY)
    expect(log).toEqual([40 * DAY, 400 * DAY, -410 * DAY, 500 * DAY])
    await s.settle()
    expect(s.pending).toBe(0)
  })

  it('never arms a clock timer longer than the limit', () => {
    const clock = createClock({ start: 0 })
    const s = createScheduler(clock)
    s.at(1000 * DAY, 'far', () => {})
    const delays = [...(clock as unknown as { timers: Map<number, { callAt: number }> }).timers.values()].map((t) => t.callAt)
    expect(delays.length).toBeGreaterThan(0)
    for (const callAt of delays) expect(callAt).toBe(MAX_TIMER_DELAY)
  })
})
