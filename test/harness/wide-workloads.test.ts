import fc from 'fast-check'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { faultKinds } from '../../src/faults/faults-schema.js'
import {
  buggyUsageReporters,
  buggyWebhookReceivers,
  checkUsageReporter,
  checkWebhookHandler,
  checkWebhookReceiver,
  forgeries,
  HarnessInputError,
  type HarnessRunOptions,
  makeWebhookReceiver,
  minimiseProgram,
  type Program,
  REFERENCE_MAX_ATTEMPTS,
  type RunOptions,
  referenceSyncUsageReporter,
  referenceUsageReporter,
  referenceWebhookReceiver,
  runProgram,
  type ScenarioRunOptions,
  usageFaultKinds,
  usageProgram,
  type WebhookHandlerEnv,
  type WebhookHandlerFactory,
  type WebhookReceiver,
  type WebhookReceiverEnv,
  type WebhookReceiverFactory,
  type WebhookSubject,
} from '../../src/harness/index.js'
import { legendLabelLimit } from '../../src/harness/report/chart.js'
import { parseScenarioText } from '../../src/harness/scenario/load-scenario.js'
import { runScenario } from '../../src/harness/scenario/run-scenario.js'

const variant = <F>(list: readonly { name: string; factory: F }[], name: string): F => {
  const v = list.find((x) => x.name === name)
  if (v === undefined) throw new Error(`no variant ${name}`)
  return v.factory
}

describe('defect 1: WebhookReceiverEnv.secrets() is newest last, as documented', () => {
  it('after a roll, the new secret comes last', async () => {
    let seen: readonly string[] = []
    const receiver: WebhookReceiverFactory = (env) => {
      const inner = referenceWebhookReceiver(env)
      return {
        state: () => inner.state(),
        handler: (req) => {
          seen = env.secrets()
          return inner.handler(req)
        },
      }
    }
    const report = await runProgram(
      { seed: 1, steps: [{ kind: 'roll_secret' }, { kind: 'emit', object: 0 }], faults: [] },
      { webhook: receiver },
    )
    const destination = report.sim.admin.deliveries()[0]?.destinationId as string
    const active = report.sim.admin.signingSecrets(destination) // the service's own order: newest first
    expect(seen).toHaveLength(2)
    expect(seen).toEqual([...active].reverse())
    expect(seen[1]).toBe(active[0])
  })
})

describe('defect 2: a scheduled receiver_slow slows the next delivery attempt', () => {
  it('is applied by the fault engine (not traced applied: false) and delays the attempt', async () => {
    const report = await runProgram(
      { seed: 2, steps: [{ kind: 'emit', object: 0 }], faults: [{ step: 1, fault: 'receiver_slow', delay: 3_000 }] },
      { webhook: referenceWebhookReceiver },
    )
    const entries = report.sim.trace.entries()
    const slow = entries.filter((e) => e.kind === 'fault' && e.data.kind === 'receiver_slow')
    expect(slow).toHaveLength(1)
    expect(slow[0]?.data).toMatchObject({ source: 'schedule', delay: 3_000, attempt: 1 })
    expect(slow[0]?.data.applied).toBeUndefined()
    const attempt = entries.find((e) => e.kind === 'delivery.attempt')
    expect(attempt?.data).toMatchObject({ outcome: 'delivered', duration: 3_000 })
    expect(report.violations).toEqual([])
  })
})

describe('defect 3: receivers.answer_quickly does not blame the receiver for network delay', () => {
  it('passes the reference receiver (answers in 0 ms) behind a 12 s network delay', async () => {
    const report = await runProgram(
      { seed: 3, steps: [{ kind: 'emit', object: 0 }], faults: [{ step: 1, fault: 'receiver_slow', delay: 12_000 }] },
      { webhook: referenceWebhookReceiver },
    )
    const attempts = report.sim.trace.entries().filter((e) => e.kind === 'delivery.attempt')
    expect(attempts[0]?.data.outcome).toBe('timeout')
    expect(report.violations).toEqual([])
  })

  it('still blames a receiver that does its slow work before answering', async () => {
    const report = await runProgram(
      { seed: 3, steps: [{ kind: 'emit', object: 0 }], faults: [] },
      { webhook: variant(buggyWebhookReceivers, 'slow-work-before-answer') },
    )
    expect(report.violations.map((v) => v.checker)).toContain('receivers.answer_quickly')
  })
})

describe('defect 4: a correct client never fails a program the harness generates', () => {
  const refusals = (p: Program) => p.faults.reduce((n, f) => n + (f.count ?? 1), 0)

  it('no generated program arms as many refusals as the reference reporter makes attempts', () => {
    fc.assert(
      fc.property(usageProgram({ faultKinds: [...faultKinds] }), (p) => refusals(p) < REFERENCE_MAX_ATTEMPTS),
      { numRuns: 2_000, seed: 16 },
    )
  })

  it.each([
    ['stream', referenceUsageReporter, 'v2.billing.meterEventStream'],
    ['sync', referenceSyncUsageReporter, 'v2.billing.meterEvents'],
  ] as const)(
    'the %s reference passes the worst case: four refusals of count 3 armed on its endpoint',
    async (_, reporter, operation) => {
      for (const fault of ['rate_limit', 'lock_timeout', 'concurrent_conflict', 'server_error'] as const) {
        const faults = Array.from({ length: 4 }, () => ({ step: 1, fault, count: 3, operation }))
        const report = await runProgram({ seed: 4, steps: [{ kind: 'report', units: 2, value: 1 }], faults }, { reporter })
        expect(report.violations).toEqual([])
      }
    },
  )

  it('the references pass generated programs with every fault kind enabled', async () => {
    const kinds = [...faultKinds]
    const stream = await checkUsageReporter(referenceUsageReporter, { numRuns: 15, seed: 41, workload: { faultKinds: kinds } })
    const sync = await checkUsageReporter(referenceSyncUsageReporter, { numRuns: 15, seed: 42, workload: { faultKinds: kinds } })
    const receiver = await checkWebhookReceiver(referenceWebhookReceiver, {
      numRuns: 15,
      seed: 43,
      workload: { faultKinds: kinds },
    })
    expect([stream.violations ?? [], sync.violations ?? [], receiver.violations ?? []]).toEqual([[], [], []])
  })
})

describe('defect 5: shrinking drops a redundant last step', () => {
  it('minimiseProgram reduces `emit, advance 1000` to `emit` when emit alone fails', async () => {
    const noDedup = variant(buggyWebhookReceivers, 'no-dedup')
    const program: Program = {
      seed: 5,
      steps: [
        { kind: 'emit', object: 0 },
        { kind: 'advance', ms: 1_000 },
      ],
      faults: [{ step: 1, fault: 'duplicate_delivery' }],
    }
    const fails = async (p: Program) => (await runProgram(p, { webhook: noDedup })).violations.length > 0
    expect(await fails(program)).toBe(true)
    const smaller = await minimiseProgram(program, fails)
    expect(smaller.steps).toEqual([{ kind: 'emit', object: 0 }])
    expect(smaller.faults).toEqual([{ step: 1, fault: 'duplicate_delivery' }])
  })

  it('the ready-made check ends on a 1-minimal program: dropping any one step makes it pass', async () => {
    const noDedup = variant(buggyWebhookReceivers, 'no-dedup')
    const result = await checkWebhookReceiver(noDedup, { numRuns: 30, seed: 5 })
    const program = result.counterexample as Program
    for (let i = 0; i < program.steps.length && program.steps.length > 1; i++) {
      const steps = program.steps.filter((_, k) => k !== i)
      const faults = program.faults
        .map((f) => (f.step > i + 1 ? { ...f, step: f.step - 1 } : f))
        .filter((f) => f.step <= steps.length)
      const report = await runProgram({ seed: program.seed, steps, faults }, { webhook: noDedup })
      expect(report.violations).toEqual([])
    }
  })
})

describe('defect 6: receivers.processed and event types a receiver does not care about', () => {
  const onlySucceeded =
    (skip: boolean): WebhookReceiverFactory =>
    (env) => ({
      state: () => ({}),
      async handler(req) {
        const event = JSON.parse(await req.text()) as { id: string; type: string }
        if (event.type === 'payment_intent.succeeded') env.effects.record(event.id, 'fulfil')
        else if (skip) env.effects.skip(event.id)
        return new Response('ok')
      },
    })
  const program: Program = { seed: 6, steps: [{ kind: 'emit', object: 0 }], faults: [] }

  it('an event acknowledged without effect is flagged unless the receiver says it skipped it', async () => {
    const silent = await runProgram(program, { webhook: onlySucceeded(false) })
    expect(silent.violations.map((v) => v.checker)).toContain('receivers.processed')
    const skipping = await runProgram(program, { webhook: onlySucceeded(true) })
    expect(skipping.violations).toEqual([])
  })
})

describe('defect 7: one vocabulary, old names kept as deprecated aliases', () => {
  it('checkWebhookHandler is checkWebhookReceiver under its old name; the types are the same', async () => {
    const a = await checkWebhookReceiver(referenceWebhookReceiver, { numRuns: 3, seed: 7 })
    const b = await checkWebhookHandler(referenceWebhookReceiver, { numRuns: 3, seed: 7 })
    expect(a).toEqual(b)
    expectTypeOf<WebhookHandlerFactory>().toEqualTypeOf<WebhookReceiverFactory>()
    expectTypeOf<WebhookSubject>().toEqualTypeOf<WebhookReceiver>()
    expectTypeOf<WebhookHandlerEnv>().toEqualTypeOf<WebhookReceiverEnv>()
    expectTypeOf<RunOptions>().toEqualTypeOf<ScenarioRunOptions>()
    expectTypeOf<HarnessRunOptions>().toHaveProperty('reporter')
  })

  it('errors name the receiver factory', async () => {
    await expect(checkWebhookReceiver((() => ({ handler: () => new Response('') })) as never, { numRuns: 1 })).rejects.toThrow(
      /^checkWebhookReceiver: receiver factory must return \{ handler, state \}/,
    )
  })
})

describe('defect 8: workload shape options of the ready-made checks', () => {
  it('refuses an unknown workload option, naming it', async () => {
    await expect(checkUsageReporter(referenceUsageReporter, { workload: { maxUnit: 3 } as never })).rejects.toThrow(
      HarnessInputError,
    )
    await expect(checkUsageReporter(referenceUsageReporter, { workload: { maxUnit: 3 } as never })).rejects.toThrow(
      "checkUsageReporter: unknown option 'workload.maxUnit'",
    )
  })

  it('a narrow workload misses what the default workload catches', async () => {
    const noBatching = variant(buggyUsageReporters, 'no-batching')
    const narrow = await checkUsageReporter(noBatching, { numRuns: 30, workload: { maxUnits: 5 } })
    const wide = await checkUsageReporter(noBatching, { numRuns: 30, workload: { maxUnits: 400, customers: 1 } })
    expect([narrow.ok, wide.ok]).toEqual([true, false])
    expect(wide.counterexample?.steps).toEqual([{ kind: 'report', units: 101, value: 1 }])
  })
})

describe('defect 9: a session-expired 401 is traced with its operation', () => {
  it('names v2.billing.meterEventStream.create on the http entry', async () => {
    const report = await runProgram(
      { seed: 9, steps: [{ kind: 'report', units: 1, value: 1 }], faults: [{ step: 1, fault: 'session_expiry' }] },
      {
        reporter: (env) => ({
          async report(units) {
            const open = await env.fetch(`${env.baseUrl}/v2/billing/meter_event_session`, {
              method: 'POST',
              headers: { Authorization: `Bearer ${env.secretKey}` },
            })
            const { authentication_token: token } = (await open.json()) as { authentication_token: string }
            env.clock.tick(16 * 60_000)
            await env.fetch(`${env.meterEventsUrl}/v2/billing/meter_event_stream`, {
              method: 'POST',
              headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
              body: JSON.stringify({ events: units.map(() => ({ event_name: env.eventName, payload: {} })) }),
            })
          },
        }),
      },
    )
    const refused = report.sim.trace.entries().filter((e) => e.kind === 'http' && e.data.status === 401)
    expect(refused).toHaveLength(1)
    expect(refused[0]?.data.operation).toBe('v2.billing.meterEventStream.create')
  })
})

describe('defect 10: report labels and legend', () => {
  it('labels a request step with its resolved path', async () => {
    const text = `name: labels
setup:
  accounts: [{ name: shop, email: shop@example.com }]
workload:
  - request: { method: GET, path: "/v1/accounts/{{shop.id}}" }
`
    const result = await runScenario(parseScenarioText(text, 'labels.yaml'))
    expect(result.steps[0]?.label).toMatch(/^GET \/v1\/accounts\/acct_\w+$/)
  })

  it('gives the legend room for its longest label', () => {
    const long = '429 endpoint-concurrency · delivery.attempt connect_error (12)'
    expect(legendLabelLimit(['200 (3)'])).toBe(320)
    expect(legendLabelLimit([long])).toBeGreaterThanOrEqual(long.length * 7.5)
  })
})

describe('forged deliveries', () => {
  for (const forgery of forgeries) {
    it(`${forgery}: the reference ignores it; a receiver that skips verification is caught`, async () => {
      const program: Program = {
        seed: 11,
        steps: [
          { kind: 'emit', object: 0 },
          { kind: 'forge', forgery },
        ],
        faults: [],
      }
      const good = await runProgram(program, { webhook: referenceWebhookReceiver })
      expect(good.violations).toEqual([])
      expect(good.sim.trace.entries().find((e) => e.kind === 'harness.forged')?.data).toMatchObject({
        forgery,
        outcome: 'refused',
      })
      const bad = await runProgram(program, { webhook: makeWebhookReceiver({ noVerification: true }) })
      expect(bad.violations.map((v) => v.checker)).toContain('receivers.forgery_ignored')
    })
  }

  it('an effect before verification is caught by the forgery checker alone', async () => {
    const result = await checkWebhookReceiver(variant(buggyWebhookReceivers, 'effect-before-verification'), {
      numRuns: 30,
      workload: { attackers: ['forge'] },
    })
    expect(result.violations?.map((v) => v.checker)).toContain('receivers.forgery_ignored')
  })
})

describe('usage accounted per customer', () => {
  it('repeating customers and values: the reference passes, the content-derived identifier loses usage', async () => {
    const program: Program = {
      seed: 12,
      steps: [
        { kind: 'report', units: 3, value: 2, customer: 0 },
        { kind: 'report', units: 2, value: 2, customer: 0 },
      ],
      faults: [],
    }
    expect((await runProgram(program, { reporter: referenceUsageReporter })).violations).toEqual([])
    expect((await runProgram(program, { reporter: referenceSyncUsageReporter })).violations).toEqual([])
    const lost = await runProgram(program, { reporter: variant(buggyUsageReporters, 'identifier-from-content') })
    expect(lost.violations.map((v) => v.checker)).toEqual(['usage.exactly_once', 'usage.bounds'])
    // Customer 0 of the pool is the first customer the scenario's setup created (it exists).
    const res = await lost.sim.fetch('https://api.service.test/v1/customers?limit=10', {
      headers: { Authorization: `Bearer ${lost.sim.platform.secretKey.test}` },
    })
    const customers = ((await res.json()) as { data: { id: string; name: string }[] }).data
    const first = customers.find((c) => c.name === 'Harness customer 0')?.id
    expect(first).toMatch(/^cus_/)
    expect(lost.violations[0]?.message).toContain(`customer ${first} was counted 1 events (sum 2) for 5 units (sum 10)`)
  })

  it('the usage fault kinds target the sync endpoint too', () => {
    const ops = new Set(
      fc
        .sample(usageProgram({ faultKinds: usageFaultKinds, maxFaults: 4 }), { numRuns: 300, seed: 1 })
        .flatMap((p) => p.faults.map((f) => f.operation ?? 'any')),
    )
    expect(ops).toEqual(new Set(['any', 'v2.billing.meterEventStream', 'v2.billing.meterEvents']))
  })
})
