import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  checkDunning,
  checkSubscriptionMirror,
  dunningSubject,
  type FlowCheckResult,
  type FlowProgram,
  mirrorSubject,
  runFlow,
} from 'service-sim/harness'
import { beforeAll, describe, expect, it } from 'vitest'
import { run } from '../cli/in-process.js'
import { taggingDunning } from './fixtures/tagging-dunning.js'
import { welcomeMirror } from './fixtures/welcome-mirrors.js'

const CLIENT = join(import.meta.dirname, 'fixtures', 'welcome-then-throws-client.ts')
const subscribe = { kind: 'subscribe', customer: 0, plan: 0, quantity: 1, trialDays: 14 } as const
// A trial (one change, so one handler at a time): the step's own request, then the app's read of
// the new subscription, then its tag of the customer.
const tagRefused = (after?: number): FlowProgram =>
  ({
    seed: 1,
    steps: [subscribe],
    faults: [{ step: 1, fault: 'rate_limit', count: 1, ...(after === undefined ? {} : { after }) }],
  }) as FlowProgram
const stripe = { headerPrefix: 'Stripe' } as const

describe('a welcome email sent before a call the provider refuses', () => {
  it('is sent twice when the claim on it is rolled back with the refused call, and the verdict says why', async () => {
    const report = await runFlow(tagRefused(2), mirrorSubject(welcomeMirror('welcome-then-throws'), {}, 'test'), stripe)
    expect(report.violations.map((v) => v.checker)).toEqual(['mirror.welcome_once'])
    expect(report.violations[0]?.message).toMatch(
      /^sub_\w+: email\.welcome a second time, while handling (evt_\w+) .*; both while handling \1, which the app refused \(answered 500 after one of its API calls failed\) and the provider sent again/,
    )
  }, 60_000)

  it('is not reached by a fault on the next request: the step itself retries through it', async () => {
    const report = await runFlow(tagRefused(), mirrorSubject(welcomeMirror('welcome-then-throws'), {}, 'test'), stripe)
    expect(report.violations).toEqual([])
  }, 60_000)

  it.each(['tag-first', 'claim-first'] as const)(
    'is sent once by a mirror that orders it %s',
    async (order) => {
      const report = await runFlow(tagRefused(2), mirrorSubject(welcomeMirror(order), {}, 'test'), stripe)
      expect(report.violations).toEqual([])
    },
    60_000,
  )
})

describe('checkSubscriptionMirror against a welcome rolled back with a refused call', () => {
  const dir = mkdtempSync(join(tmpdir(), 'service-sim-welcome-'))
  let result: FlowCheckResult

  beforeAll(async () => {
    result = await checkSubscriptionMirror(welcomeMirror('welcome-then-throws'), {
      ...stripe,
      seed: 1,
      scenarioDir: dir,
      name: 'welcome-then-throws',
    })
  }, 300_000)

  it('catches it at the default runs, shrunk to a few steps with a fault that lets requests through', () => {
    expect(result.ok).toBe(false)
    expect(result.violations?.[0]?.checker).toBe('mirror.welcome_once')
    expect(result.violations?.[0]?.message).toMatch(/email\.welcome a second time/)
    expect(result.counterexample?.steps.length).toBeLessThanOrEqual(10)
    expect(result.counterexample?.faults.some((f) => (f.after ?? 0) > 0)).toBe(true)
  })

  it('writes the fault with its after into the scenario file, which replays to the same violation and trace', async () => {
    const file = result.scenarioFile as string
    const written = JSON.parse(readFileSync(file, 'utf8')) as { faults: { schedule: { after?: number }[] } }
    expect(written.faults.schedule).toEqual(result.counterexample?.faults)
    const replayed = await run(['replay', file, '--client', CLIENT, '--no-report'])
    expect(replayed.stdout).toContain('FAIL checker mirror.welcome_once')
    expect(replayed.stdout).toMatch(/ok +reproduces the recorded trace hash/)
  }, 120_000)

  it.each(['tag-first', 'claim-first'] as const)(
    'passes the mirror that orders it %s',
    async (order) => {
      const good = await checkSubscriptionMirror(welcomeMirror(order), { ...stripe, seed: 1 })
      expect(good.violations ?? []).toEqual([])
    },
    300_000,
  )
})

describe('a failure notice sent before a call the provider refuses', () => {
  // The renewal fails during the month; the app reads the invoice, notices, then tags the customer.
  const renewalFails = (after?: number): FlowProgram =>
    ({
      seed: 1,
      steps: [subscribe, { kind: 'fail_card', customer: 0 }, { kind: 'advance', ms: 46 * 86_400_000 }],
      faults: [{ step: 3, fault: 'server_error', count: 1, ...(after === undefined ? {} : { after }) }],
    }) as FlowProgram

  it('is sent twice when its claim is rolled back with the refused call', async () => {
    const report = await runFlow(renewalFails(1), dunningSubject(taggingDunning('notice-then-throws'), 'test'), stripe)
    expect(report.violations[0]?.checker).toBe('dunning.notice_once')
    expect(report.violations[0]?.message).toMatch(/which the provider sent again after the app refused it/)
    // The same fault on the next request meets the app's read, before any notice.
    const first = await runFlow(renewalFails(), dunningSubject(taggingDunning('notice-then-throws'), 'test'), stripe)
    expect(first.violations).toEqual([])
  }, 60_000)

  it('is sent once by the app that tags first', async () => {
    const report = await runFlow(renewalFails(1), dunningSubject(taggingDunning('tag-first'), 'test'), stripe)
    expect(report.violations).toEqual([])
  }, 60_000)

  it('is caught by checkDunning at the default runs in at most 10 steps', async () => {
    // Seed 1: seed 2's programs changed when the dunning stories grew (the endpoint down through a
    // renewal's retries, events sharing a second) and no longer meet a refused tag in 50 runs.
    const result = await checkDunning(taggingDunning('notice-then-throws'), { ...stripe, seed: 1 })
    expect(result.violations?.[0]?.checker).toBe('dunning.notice_once')
    expect(result.counterexample?.steps.length).toBeLessThanOrEqual(10)
  }, 300_000)
})
