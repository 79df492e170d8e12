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
    expect(result.counterexample?.steps).toContainEqual({ kind: 'deactivate' })
  })

  it('passes the stale receiver when deliveries are immediate (the race needs the meter to change first)', async () => {
    const prompt: ThinRaceProgram = { ...race, faults: [] }
    expect((await runThinRace(prompt, staleThinEventReceiver)).violations).toEqual([])
  })

  it('replays a program to the same trace hash', async () => {
    const a = await runThinRace(race, referenceThinEventReceiver)
    const b = await runThinRace(race, referenceThinEventReceiver)
    expect(a.traceHash).toBe(b.traceHash)
  })
})
