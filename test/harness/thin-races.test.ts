import {
  checkThinEventReceiver,
  referenceThinEventReceiver,
  runThinRace,
  staleThinEventReceiver,
  type ThinRaceProgram,
} from 'service-sim/harness'
import { describe, expect, it } from 'vitest'

// The error report's delivery waits (delay fault) while the meter is deactivated: by the time the
// receiver gets the thin event, the meter it names has moved on.
const race: ThinRaceProgram = {
  seed: 1,
  steps: [{ kind: 'error_report' }, { kind: 'deactivate' }],
  faults: [{ step: 1, fault: 'delay_delivery' }],
}

describe('thin events with fetch races', () => {
  it('passes a receiver that fetches the object a thin event names and acts on it as fetched', async () => {
    const report = await runThinRace(race, referenceThinEventReceiver)
    expect(report.violations).toEqual([])
    const result = await checkThinEventReceiver(referenceThinEventReceiver, { numRuns: 60, seed: 4 })
    expect(result.violations ?? []).toEqual([])
    expect(result.ok).toBe(true)
  })

  it("catches a receiver that assumes the object's state at the event's moment, with a shrunk counterexample", async () => {
    const report = await runThinRace(race, staleThinEventReceiver)
    expect(report.violations.map((v) => v.checker)).toEqual(['thin.fetched_state'])
    expect(report.violations[0]?.message).toMatch(/acted on as 'active' while its object was 'inactive'/)
    const result = await checkThinEventReceiver(staleThinEventReceiver, { numRuns: 100, seed: 4 })
    expect(result.ok).toBe(false)
    expect(result.counterexample?.steps.length).toBeLessThanOrEqual(3)
    expect(result.counterexample?.steps.some((s) => s.kind === 'deactivate' || s.kind === 'pay')).toBe(true)
  })

  it('passes the stale receiver when deliveries are immediate (the race needs the meter to change first)', async () => {
    const prompt: ThinRaceProgram = { ...race, faults: [] }
    expect((await runThinRace(prompt, staleThinEventReceiver)).violations).toEqual([])
  })

  // A payment short of funds: created, attempted, failed and waiting for its retry at once, while
  // the `created` event's delivery waits; a paying one, its `created` delivered behind the rest.
  const payments: ThinRaceProgram = {
    seed: 2,
    steps: [{ kind: 'pay', card: 1 }, { kind: 'advance', ms: 1_000 }, { kind: 'pay', card: 0 }, { kind: 'cancel_payment' }],
    faults: [
      { step: 1, fault: 'delay_delivery' },
      { step: 3, fault: 'reorder_delivery' },
    ],
  }

  it('passes the reference over off-session payments whose thin events arrive after the payment moved on', async () => {
    const report = await runThinRace(payments, referenceThinEventReceiver)
    expect(report.violations).toEqual([])
  })

  it('catches the stale receiver on payments that moved on before their events arrived', async () => {
    const report = await runThinRace(payments, staleThinEventReceiver)
    expect(report.violations[0]?.message).toMatch(
      /acted on as '(pending|processing)' while its object was '(pending_retry|succeeded)'/,
    )
    const result = await checkThinEventReceiver(staleThinEventReceiver, { numRuns: 100, seed: 4 })
    expect(result.ok).toBe(false)
    expect(result.counterexample?.steps.length).toBeLessThanOrEqual(3)
  })

  it('replays a program to the same trace hash', async () => {
    const a = await runThinRace(race, referenceThinEventReceiver)
    const b = await runThinRace(race, referenceThinEventReceiver)
    expect(a.traceHash).toBe(b.traceHash)
  })
})
