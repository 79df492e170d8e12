import { checkDunning, dunningSubject, type FlowProgram, runFlow } from 'service-sim/harness'
import { describe, expect, it } from 'vitest'
import { standingDunning } from './fixtures/outside-batch8-apps.js'

const DAY = 86_400_000
const HOUR = 3_600_000
const subscribe = { kind: 'subscribe', customer: 0, plan: 0, quantity: 1, trialDays: 0 } as const
const failing = { kind: 'fail_card', customer: 0 } as const
const renewal = { kind: 'x:renewal', customer: 0 } as const
const program = (steps: readonly unknown[], faults: readonly unknown[] = []) =>
  ({ seed: 1, steps, faults }) as unknown as FlowProgram

const control = standingDunning({ givenUp: 'written-off' })
const noticesWithNextAttempt = standingDunning({ givenUp: 'written-off', notice: 'with-next-attempt' })
const ordersByCreated = standingDunning({ givenUp: 'written-off', dedupe: 'created' })

describe('dunning flows: the endpoint down across retries, events sharing a second', () => {
  it('catches an app that sends the notice only for a failure naming its next attempt, when the endpoint was down through the earlier ones', async () => {
    // Down from the renewal past the third attempt (its deliveries given up on), up for the last.
    const downThenUp = program(
      [subscribe, failing, renewal, { kind: 'advance', ms: 8 * DAY + 6 * HOUR }, { kind: 'advance', ms: 7 * DAY }],
      [
        { step: 3, fault: 'receiver_down', count: 1 },
        { step: 5, fault: 'receiver_up', count: 1 },
      ],
    )
    const report = await runFlow(downThenUp, dunningSubject(noticesWithNextAttempt, 'test'))
    expect(report.violations.map((v) => v.checker)).toEqual(['dunning.notice_once'])
    expect(report.violations[0]?.message).toMatch(
      /0 notice\(s\) for one failed attempt cycle \(expected 1\): the app accepted evt_\w+ \(invoice\.payment_failed, showing status open, attempt_count 4\), the first failure of the cycle it accepted .*whatever its attempt count or next_payment_attempt \(null on the last automatic attempt\)/,
    )
    // The endpoint up throughout, or the control: nothing to blame.
    expect((await runFlow(program(downThenUp.steps), dunningSubject(noticesWithNextAttempt, 'test'))).violations).toEqual([])
    expect((await runFlow(downThenUp, dunningSubject(control, 'test'))).violations).toEqual([])
  }, 60_000)

  it('finds the notice skipped for a failure without a next attempt at the default runs, shrunk small', async () => {
    const result = await checkDunning(noticesWithNextAttempt, { seed: 19 })
    expect(result.violations?.[0]?.checker).toBe('dunning.notice_once')
    expect(result.violations?.[0]?.message).toMatch(/attempt_count 4\), the first failure of the cycle it accepted/)
    expect(result.counterexample?.steps.length).toBeLessThanOrEqual(10)
    // The endpoint down through the earlier failures (up again by a later step or at the run's end).
    expect(result.counterexample?.faults.map((f) => f.fault)).toContain('receiver_down')
  }, 300_000)

  it('catches an app that skips an invoice event no newer than the last it applied, when a retry fails as the customer pays', async () => {
    const retryThenPaid = (settleMs?: number) =>
      program([
        subscribe,
        failing,
        renewal,
        { kind: 'x:next_attempt', customer: 0, ...(settleMs === undefined ? {} : { settleMs }) },
        { kind: 'recover', customer: 0 },
      ])
    const report = await runFlow(retryThenPaid(0), dunningSubject(ordersByCreated, 'test'))
    expect(report.violations.map((v) => v.checker)).toEqual(['dunning.restored_once'])
    expect(report.violations[0]?.message).toMatch(
      /restored 0 time\(s\) after it was paid \(expected 1\): the app accepted its invoice\.paid, made in the same second as evt_\w+ \(invoice\.payment_failed, about the same invoice\), which it had accepted before: .*deduplicate by event id/,
    )
    expect(report.steps[3]).toBe('x:next_attempt customer=0, the next step 0ms later')
    // The payment half a minute after the retry, or the control: nothing to blame.
    expect((await runFlow(retryThenPaid(), dunningSubject(ordersByCreated, 'test'))).violations).toEqual([])
    expect((await runFlow(retryThenPaid(0), dunningSubject(control, 'test'))).violations).toEqual([])
  }, 60_000)

  it('catches the same app when the last retry fails and the invoice is written off in that second', async () => {
    const lastThenWrittenOff = program([
      subscribe,
      failing,
      renewal,
      { kind: 'advance', ms: 8 * DAY + 6 * HOUR },
      { kind: 'x:next_attempt', customer: 0, settleMs: 0 },
      { kind: 'x:write_off', customer: 0 },
    ])
    const report = await runFlow(lastThenWrittenOff, dunningSubject(ordersByCreated, 'test'))
    expect(report.violations.map((v) => v.checker)).toEqual(['dunning.standing'])
    expect(report.violations[0]?.message).toMatch(
      /never restricted the account, though it accepted evt_\w+ \(invoice\.marked_uncollectible\), made in the same second as evt_\w+ \(invoice\.payment_failed, about the same invoice\)/,
    )
    expect((await runFlow(lastThenWrittenOff, dunningSubject(control, 'test'))).violations).toEqual([])
  }, 60_000)

  it('finds the dropped same-second event at the default runs, shrunk small', async () => {
    const result = await checkDunning(ordersByCreated, { seed: 1 })
    expect(result.violations?.[0]?.message).toMatch(/made in the same second as .*can share `created`/)
    expect(result.counterexample?.steps.length).toBeLessThanOrEqual(10)
  }, 300_000)
})
