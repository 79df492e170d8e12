import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  checkDunning,
  checkSubscriptionMirror,
  dunningSubject,
  type FlowProgram,
  loadScenarioFile,
  mirrorSubject,
  runFlow,
  runScenario,
} from 'service-sim/harness'
import { describe, expect, it } from 'vitest'
import { createdMirror, standingDunning } from './fixtures/outside-batch8-apps.js'

const DAY = 86_400_000
const subscribe = { kind: 'subscribe', customer: 0, plan: 0, quantity: 1, trialDays: 0 } as const
const program = (steps: readonly unknown[]) => ({ seed: 1, steps, faults: [] }) as unknown as FlowProgram

const dedupesByCreated = createdMirror({ dedupeByCreated: true })
const dedupesById = createdMirror({ dedupeByCreated: false })
const restrictsOnLastAttempt = standingDunning({ givenUp: 'next-attempt' })
const restrictsOnWriteOff = standingDunning({ givenUp: 'written-off' })

describe('outside apps, batch 8', () => {
  it('catches a mirror that skips an event no newer than the last it applied, when two changes share a second', async () => {
    // The plan changed, its update handled, the seats changed in the same second: one `created`.
    const twoInOneSecond = program([
      subscribe,
      { kind: 'change_plan', sub: -1, plan: 2, settleMs: 0 },
      { kind: 'change_quantity', sub: -1, quantity: 3 },
    ])
    const report = await runFlow(twoInOneSecond, mirrorSubject(dedupesByCreated, {}, 'test'))
    expect(report.violations.map((v) => v.checker)).toEqual(['mirror.converged'])
    expect(report.violations[0]?.message).toMatch(
      /mirrored with quantity 1 \(provider: 3\), though the app acknowledged evt_\w+ \(customer\.subscription\.updated\), made in the same second as evt_\w+ \(customer\.subscription\.updated\), which it had acknowledged before: two changes of one subscription can share `created`/,
    )
    expect(report.steps[1]).toBe('change sub#-1 to team, the next step 0ms later')
    // The same changes a second apart, or the control deduplicating by event id: nothing to blame.
    const apart = program([
      subscribe,
      { kind: 'change_plan', sub: -1, plan: 2 },
      { kind: 'change_quantity', sub: -1, quantity: 3 },
    ])
    expect((await runFlow(apart, mirrorSubject(dedupesByCreated, {}, 'test'))).violations).toEqual([])
    expect((await runFlow(twoInOneSecond, mirrorSubject(dedupesById, {}, 'test'))).violations).toEqual([])
  }, 60_000)

  it('finds the dropped same-second change at the default runs, shrunk small, and its file replays exactly', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'service-sim-batch8-'))
    const result = await checkSubscriptionMirror(dedupesByCreated, { seed: 1, scenarioDir: dir, name: 'dedupe-by-created' })
    expect(result.violations?.[0]?.checker).toBe('mirror.converged')
    expect(result.violations?.[0]?.message).toMatch(/made in the same second as .*deduplicating or ordering by `created`/)
    expect(result.counterexample?.steps.length).toBeLessThanOrEqual(10)
    expect(result.counterexample?.steps.some((s) => s.settleMs !== undefined)).toBe(true)
    const file = result.scenarioFile as string
    expect(readFileSync(file, 'utf8')).toContain('"settleMs"')
    const replayed = await runScenario(loadScenarioFile(file), { client: { client: dedupesByCreated } as never })
    expect(replayed.traceHash).toBe(result.traceHash)
  }, 300_000)

  it('passes a mirror that deduplicates by event id and reads the subscription, at the default runs', async () => {
    const result = await checkSubscriptionMirror(dedupesById, { seed: 1 })
    expect(result.violations ?? []).toEqual([])
  }, 300_000)

  it('refuses a pace on a wait, and one that is no duration, naming the step', async () => {
    await expect(
      runFlow(program([{ kind: 'advance', ms: 1000, settleMs: 0 }]), mirrorSubject(dedupesById, {}, 'test')),
    ).rejects.toThrow("runFlow: step 0 ('advance') has unknown field 'settleMs'; a wait is its own 'ms'")
    await expect(runFlow(program([{ ...subscribe, settleMs: -1 }]), mirrorSubject(dedupesById, {}, 'test'))).rejects.toThrow(
      "runFlow: step 0 ('subscribe') field 'settleMs' must be a finite number of milliseconds >= 0, got -1",
    )
  })

  it('catches a dunning app that takes a failure without a next attempt for collection giving up', async () => {
    // Every automatic retry fails; nobody writes the invoice off: it stays open and payable.
    const retriesRunOut = program([
      subscribe,
      { kind: 'fail_card', customer: 0 },
      { kind: 'advance', ms: 32 * DAY },
      { kind: 'advance', ms: 16 * DAY },
    ])
    const report = await runFlow(retriesRunOut, dunningSubject(restrictsOnLastAttempt, 'test'))
    expect(report.violations.map((v) => v.checker)).toEqual(['dunning.standing'])
    expect(report.violations[0]?.message).toMatch(
      /still restricted at the end though none of its invoices is uncollectible \(restricted while handling evt_\w+ \(invoice\.payment_failed, .*attempt_count 4\).*: a failed attempt is not collection giving up, even the last one \(next_payment_attempt null\)/,
    )
    // The business writes the invoice off while retries remain: next_payment_attempt is still set.
    const writtenOff = program([
      subscribe,
      { kind: 'fail_card', customer: 0 },
      { kind: 'advance', ms: 32 * DAY },
      { kind: 'x:write_off', customer: 0 },
    ])
    const missed = await runFlow(writtenOff, dunningSubject(restrictsOnLastAttempt, 'test'))
    expect(missed.violations[0]?.message).toMatch(
      /written off .* never restricted the account, though it accepted evt_\w+ \(invoice\.marked_uncollectible\): collection gives up when the invoice is written off, whatever its next_payment_attempt/,
    )
    for (const p of [retriesRunOut, writtenOff])
      expect((await runFlow(p, dunningSubject(restrictsOnWriteOff, 'test'))).violations).toEqual([])
  }, 60_000)

  it('finds the restriction read from the last attempt at the default runs, shrunk small', async () => {
    const result = await checkDunning(restrictsOnLastAttempt, { seed: 1 })
    expect(result.violations?.[0]?.checker).toBe('dunning.standing')
    expect(result.violations?.[0]?.message).toMatch(/next_payment_attempt/)
    expect(result.counterexample?.steps.length).toBeLessThanOrEqual(10)
  }, 300_000)

  it('passes a dunning app that restricts on the write-off and lifts it on payment or void, at the default runs', async () => {
    const result = await checkDunning(restrictsOnWriteOff, { seed: 1 })
    expect(result.violations ?? []).toEqual([])
  }, 300_000)
})
