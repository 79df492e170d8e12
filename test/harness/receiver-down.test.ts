import type { Simulator } from 'service-sim'
import { type FlowProgram, mirrorSubject, referenceSubscriptionMirror, runFlow } from 'service-sim/harness'
import { describe, expect, it } from 'vitest'

/** Down from step `down` (1: before any delivery reached it; 2: after some did) until step 3. */
const programDownAt = (down: number): FlowProgram => ({
  seed: 3,
  steps: [
    { kind: 'subscribe', customer: 0, plan: 0, quantity: 2, trialDays: 0 },
    { kind: 'subscribe', customer: 1, plan: 1, quantity: 1, trialDays: 0 },
    { kind: 'advance', ms: 3_600_000 },
  ],
  faults: [
    { step: down, fault: 'receiver_down' },
    { step: 3, fault: 'receiver_up' },
  ],
})

/** Runs the program, noting how many requests the app was handed and what the service recorded. */
async function run(program: FlowProgram) {
  let sim: Simulator | undefined
  let handled = 0
  const subject = mirrorSubject(referenceSubscriptionMirror, {}, 'test')
  const counted: typeof subject = {
    ...subject,
    start(r) {
      const client = subject.start(r)
      return {
        handler(req) {
          handled++
          return client.handler(req)
        },
      }
    },
  }
  const report = await runFlow(program, counted, {
    onSimulator: (s) => {
      sim = s
    },
  })
  const attempts = (sim as Simulator).admin.deliveries().flatMap((d) => d.attempts)
  return { report, handled, attempts }
}

describe('a receiver taken down by a fault', () => {
  it.each([1, 2])(
    'refuses every delivery while down (from step %i), without the app seeing them',
    async (down) => {
      const { report, handled, attempts } = await run(programDownAt(down))
      const refused = attempts.filter((a) => a.outcome === 'connect_error')
      expect(refused.length).toBeGreaterThan(1)
      for (const a of refused) expect(a.message).toMatch(/^connect ECONNREFUSED https:\/\//)
      // Every request the app was handed is an attempt it answered: none of the refused ones.
      expect(handled).toBe(attempts.length - refused.length)
      // Back up, the refused events are delivered on their retries, and the mirror agrees with the service.
      expect(attempts.some((a) => a.outcome === 'delivered' && a.trigger === 'retry')).toBe(true)
      expect(report.violations).toEqual([])
    },
    60_000,
  )

  it('runs the same program to the same trace', async () => {
    const [a, b] = [await run(programDownAt(2)), await run(programDownAt(2))]
    expect(b.report.traceHash).toBe(a.report.traceHash)
    expect(b.attempts).toEqual(a.attempts)
  }, 60_000)
})
