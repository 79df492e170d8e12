import {
  buggyFulfilmentClients,
  checkFulfilment,
  type FulfilmentClientFactory,
  fulfilmentSubject,
  HarnessInputError,
  makeFulfilmentClient,
  referenceFulfilmentClient,
  runFlow,
} from 'service-sim/harness'
import { describe, expect, it } from 'vitest'

// CI runs fewer programs than the 1,000 the reference passed (docs/faults-and-properties.md).
const RUNS = 100

const visaThenReturn = {
  seed: 3,
  faults: [],
  steps: [
    { kind: 'x:checkout', mode: 'payment', customer: 0, plan: 1 },
    { kind: 'x:pay', session: 0, payment: 0, returns: true },
  ],
} as const

describe('checkFulfilment', () => {
  it('passes the reference client over generated checkout flows under every fault kind', async () => {
    const result = await checkFulfilment(referenceFulfilmentClient, { numRuns: RUNS })
    expect(result.violations ?? []).toEqual([])
    expect(result.ok).toBe(true)
  }, 120_000)

  it('passes the reference client with realistic fault rates on top of the schedule', async () => {
    const result = await checkFulfilment(referenceFulfilmentClient, { numRuns: 40, seed: 11, faults: { preset: 'realistic' } })
    expect(result.violations ?? []).toEqual([])
  }, 120_000)

  for (const variant of buggyFulfilmentClients) {
    it(`catches the ${variant.name} client with a counterexample of at most 10 steps`, async () => {
      const result = await checkFulfilment(variant.factory, { ...variant.options, numRuns: 150 })
      expect(result.ok).toBe(false)
      expect(result.counterexample?.steps.length).toBeLessThanOrEqual(10)
      // A variant that breaks the acknowledgement rule says so; the others break the property's own rules.
      expect(result.violations?.[0]?.checker).toMatch(variant.breaks ?? /^fulfilment\./)
    }, 120_000)
  }

  it('fulfils once when the success page and the webhook race', async () => {
    const report = await runFlow(visaThenReturn as never, fulfilmentSubject(referenceFulfilmentClient, 'test'))
    expect(report.violations).toEqual([])
    expect(report.steps[1]).toMatch(/success page 200/)
    const twice = await runFlow(visaThenReturn as never, fulfilmentSubject(makeFulfilmentClient({ eventIdDedupe: true }), 'test'))
    expect(twice.violations.map((v) => v.checker)).toEqual(['fulfilment.once'])
  }, 60_000)

  it('catches a memory-only dedupe by a redeploy between the page and the reload', async () => {
    const program = {
      seed: 3,
      faults: [],
      steps: [...visaThenReturn.steps, { kind: 'x:restart' }, { kind: 'x:return', session: 0 }],
    }
    const memory = makeFulfilmentClient({ memoryDedupe: true })
    const report = await runFlow(program as never, fulfilmentSubject(memory, 'test'))
    expect(report.violations.map((v) => v.checker)).toEqual(['fulfilment.once'])
    const stored = await runFlow(program as never, fulfilmentSubject(referenceFulfilmentClient, 'test'))
    expect(stored.violations).toEqual([])
  }, 60_000)

  it('fulfils a delayed bank debit only once it has cleared', async () => {
    const program = {
      seed: 4,
      faults: [],
      steps: [
        { kind: 'x:checkout', mode: 'payment', customer: -1, plan: 0 },
        { kind: 'x:pay', session: 0, payment: 4, returns: true },
      ],
    }
    const report = await runFlow(program as never, fulfilmentSubject(referenceFulfilmentClient, 'test'))
    expect(report.steps[1]).toMatch(/pm_usBankAccount, success page 200/)
    expect(report.violations).toEqual([])
    const early = await runFlow(program as never, fulfilmentSubject(makeFulfilmentClient({ completedRegardless: true }), 'test'))
    // The verdict names the app's action, the event it handled (showing the session unpaid) and the provider's state.
    expect(early.violations[0]?.message).toMatch(
      /order\.fulfil though what it acted on showed it not paid .*while handling evt_\w+ \(checkout\.session\.completed, .*payment_status unpaid\); no API read of it; provider then: /,
    )
  }, 60_000)

  it('accepts a provisional fulfilment when asked to, and still wants it reversed when left unpaid', async () => {
    const early = makeFulfilmentClient({ neverReverses: true })
    const program = {
      seed: 4,
      faults: [],
      steps: [
        { kind: 'x:checkout', mode: 'payment', customer: 0, plan: 0 },
        { kind: 'x:pay', session: 0, payment: 4, returns: false },
      ],
    }
    const strict = await runFlow(program as never, fulfilmentSubject(early, 'test'))
    expect(strict.violations.map((v) => v.checker)).toEqual(['fulfilment.unpaid'])
    const lenient = await runFlow(program as never, fulfilmentSubject(early, 'test', { provisional: true }))
    expect(lenient.violations).toEqual([])
  }, 60_000)

  it('refuses a factory that does not return a handler and a success page', async () => {
    const bad = (() => ({ handler: () => new Response('ok') })) as unknown as FulfilmentClientFactory
    await expect(checkFulfilment(bad, { numRuns: 1 })).rejects.toThrow(HarnessInputError)
  })
})
