import { describe, expect, it } from 'vitest'
import {
  buggyWebhookReceivers,
  type Checker,
  checkerRegistry,
  fromStepSpec,
  type Program,
  parseScenarioText,
  recordViolation,
  referenceWebhookReceiver,
  registerChecker,
  runProgram,
  runScenario,
  scenarioOf,
  startRun,
  stepKinds,
  toStepSpec,
} from '../../src/harness/index.js'

const webhookProgram: Program = {
  seed: 11,
  steps: [
    { kind: 'emit', object: 0 },
    { kind: 'advance', ms: 60_000 },
    { kind: 'receiver', up: false },
    { kind: 'emit', object: 0 },
    { kind: 'receiver', up: true },
    { kind: 'resend', event: 0, afterMs: 3_600_000 },
    { kind: 'forge', forgery: 'altered_body' },
    { kind: 'roll_secret' },
  ],
  faults: [{ step: 2, fault: 'duplicate_delivery' }],
}

describe('one step vocabulary', () => {
  it('writes every generated step as a step of the scenario vocabulary and reads it back unchanged', () => {
    for (const step of [...webhookProgram.steps, { kind: 'report', units: 3, value: 2, customer: 1 } as const]) {
      const spec = toStepSpec(step)
      expect(Object.keys(spec).filter((k) => (stepKinds as readonly string[]).includes(k))).toHaveLength(1)
      expect(fromStepSpec(spec)).toEqual(step)
    }
  })

  it('runs a program step by step through the vocabulary to the trace hash of runProgram', async () => {
    const whole = await runProgram(webhookProgram, { webhook: referenceWebhookReceiver })
    const run = startRun(webhookProgram.seed, { webhook: referenceWebhookReceiver }, webhookProgram.faults)
    for (const step of webhookProgram.steps) await run.execSpec(toStepSpec(step))
    const stepped = await run.finish()
    expect(stepped.traceHash).toBe(whole.traceHash)
    expect(run.engine.steps.map((s) => s.kind)).toEqual([
      'client',
      'advance',
      'receiver',
      'client',
      'receiver',
      'client',
      'client',
      'client',
    ])
  })

  it('refuses a client action the property harness does not have, naming the ones it has', async () => {
    const run = startRun(1, { webhook: referenceWebhookReceiver })
    await expect(run.execSpec({ client: { action: 'pay_invoice' } })).rejects.toThrow(
      /no action 'pay_invoice' \(has: report_usage/,
    )
  })
})

describe('one checker API', () => {
  it('lets a scenario name the trace checkers of the property harness, and they read its trace', async () => {
    const scenario = parseScenarioText(
      [
        'name: trace-checkers',
        'seed: 3',
        'workload:',
        '  - request: { method: POST, path: /v1/customers, body: { email: a@example.com } }',
        '    expect: { status: 200 }',
        'expectations:',
        '  checkers: [no-server-errors, deliveries, usage, clients]',
      ].join('\n'),
      'inline.yaml',
    )
    const result = await runScenario(scenario)
    expect(result.verdicts.filter((v) => v.name.startsWith('checker ')).map((v) => [v.name, v.ok])).toEqual([
      ['checker no-server-errors', true],
      ['checker deliveries', true],
      ['checker usage', true],
      ['checker clients', true],
    ])
  })

  it('runs a registered checker by name and fails the scenario with its violation and witnesses', async () => {
    const no200: Checker = {
      name: 'test-no-200',
      check: ({ requests }) => {
        const ok = requests.filter((r) => r.status === 200)
        return ok.length === 0 ? [] : [recordViolation('test-no-200', `${ok.length} request(s) answered 200`, ok)]
      },
    }
    registerChecker(no200)
    try {
      const scenario = parseScenarioText(
        'name: custom\nworkload:\n  - request: { path: /v1/balance }\nexpectations:\n  checkers: [test-no-200]\n',
        'inline.yaml',
      )
      const result = await runScenario(scenario)
      const verdict = result.verdicts.find((v) => v.name === 'checker test-no-200')
      expect(verdict).toMatchObject({ ok: false, message: '1 request(s) answered 200' })
      expect(verdict?.witness).toEqual([expect.objectContaining({ path: '/v1/balance', status: 200 })])
      expect(result.ok).toBe(false)
    } finally {
      checkerRegistry.delete('test-no-200')
    }
  })

  it('finds a buggy receiver through the same checkers, and the counterexample scenario uses the same vocabulary', async () => {
    const variant = buggyWebhookReceivers.find((v) => v.name === 'no-dedup')
    if (variant === undefined) throw new Error('no no-dedup variant')
    const program: Program = { seed: 5, steps: [{ kind: 'emit', object: 0 }], faults: [{ step: 1, fault: 'duplicate_delivery' }] }
    const report = await runProgram(program, { webhook: variant.factory })
    expect(report.violations.map((v) => v.checker)).toContain('receivers.effects_once')
    const scenario = scenarioOf(program, { name: 'no-dedup' })
    expect(scenario.workload).toEqual([{ client: { action: 'emit_event', args: { object: 0 } } }])
  })
})
