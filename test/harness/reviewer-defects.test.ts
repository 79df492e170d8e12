import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  assertRun,
  checkReceiver,
  checkUsageReporter,
  checkWebhookHandler,
  type Program,
  referenceUsageReporter,
  referenceWebhookReceiver,
  runProgram,
  type WebhookHandlerFactory,
} from '../../src/harness/index.js'
import type { TraceEntry } from '../../src/kernel/trace.js'
import { run } from '../cli/in-process.js'

const DAYS_4 = 4 * 24 * 3_600_000
const emitThenWait: Program = {
  seed: 1,
  steps: [
    { kind: 'emit', object: 0 },
    { kind: 'advance', ms: DAYS_4 },
  ],
  faults: [],
}
const never =
  (handler: () => unknown): WebhookHandlerFactory =>
  () =>
    ({ handler, state: () => ({}) }) as unknown as ReturnType<WebhookHandlerFactory>

describe('a webhook handler that never acknowledges', () => {
  for (const [label, handler] of [
    [
      'throws',
      () => {
        throw new Error('boom')
      },
    ],
    ['answers 500', () => new Response('', { status: 500 })],
    ['returns a non-Response', () => 'ok'],
  ] as const) {
    it(`fails the ready-made property when it ${label}`, async () => {
      const result = await checkWebhookHandler(never(handler), { numRuns: 50 })
      expect(result.ok).toBe(false)
      expect(result.violations?.map((v) => v.checker)).toContain('receivers.acknowledges')
    })
  }

  it('names the unacknowledged genuine delivery with its answered attempts and the exhausted entry as witnesses', async () => {
    const report = await runProgram(emitThenWait, { webhook: never(() => new Response('', { status: 500 })) })
    const found = report.violations.filter((v) => v.checker === 'receivers.acknowledges')
    expect(found).toHaveLength(1)
    const kinds = found[0]?.entries.map((e) => e.kind)
    expect(kinds?.at(-1)).toBe('delivery.exhausted')
    expect(kinds?.slice(0, -1).every((k) => k === 'delivery.attempt')).toBe(true)
    expect(found[0]?.message).toContain('answered 500')
  })

  it('does not blame the receiver for a delivery that only met a down receiver', async () => {
    const down: Program = { seed: 1, steps: [{ kind: 'receiver', up: false }, ...emitThenWait.steps], faults: [] }
    const report = await runProgram(down, { webhook: never(() => new Response('', { status: 500 })) })
    expect(report.violations.map((v) => v.checker)).not.toContain('receivers.acknowledges')
  })

  it('passes the reference receiver on the same program', async () => {
    expect((await runProgram(emitThenWait, { webhook: referenceWebhookReceiver })).violations).toEqual([])
  })

  it('lists witnesses in ascending trace order', () => {
    const entry = (seq: number, kind: string, data: Record<string, unknown>): TraceEntry =>
      ({ seq, at: 0, kind, data }) as TraceEntry
    const attempt = { event: 'evt_1', destination: 'd', trigger: 'automatic', outcome: 'delivered', status: 200 }
    const [found] = checkReceiver([
      entry(1, 'harness.effect', { event: 'evt_1', effect: 'a' }),
      entry(2, 'delivery.attempt', attempt),
      entry(3, 'harness.effect', { event: 'evt_1', effect: 'a' }),
      entry(4, 'delivery.attempt', attempt),
    ])
    expect(found?.checker).toBe('receivers.effects_once')
    expect(found?.witness).toEqual([1, 2, 3, 4])
  })
})

describe('replaying a counterexample whose subject is only a name', () => {
  it('exits 2 with a usage error asking for --client, not a module-not-found stack', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'service-sim-named-'))
    const found = await checkWebhookHandler(
      never(() => new Response('', { status: 500 })),
      {
        numRuns: 20,
        scenarioDir: dir,
        name: 'my-handler',
      },
    )
    const file = found.scenarioFile as string
    const r = await run(['replay', file, '--no-report'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(
      "the scenario names subject 'my-handler' which is not a bundled reference client: pass --client <module> exporting `webhook` (or `reporter`)",
    )
    expect(r.stderr).not.toContain('ERR_MODULE_NOT_FOUND')
    const client = join(dir, 'only-reporter.mjs')
    const { writeFileSync } = await import('node:fs')
    writeFileSync(client, 'export const reporter = () => ({ report: async () => {} })\n')
    const lacking = await run(['replay', file, '--no-report', '--client', client])
    expect(lacking.code).toBe(2)
    expect(lacking.stderr).toContain('the --client module exports no `webhook`')
  })
})

describe('misused harness calls are refused naming the API and the option', () => {
  const usage: Program = { seed: 1, steps: [{ kind: 'report', units: 1, value: 1 }], faults: [] }
  const cases: [string, () => Promise<unknown>, RegExp][] = [
    [
      'checkUsageReporter(undefined)',
      () => checkUsageReporter(undefined as never),
      /^checkUsageReporter: reporter factory must be a function/,
    ],
    [
      'numRun typo',
      () => checkUsageReporter(referenceUsageReporter, { numRun: 3 } as never),
      /^checkUsageReporter: unknown option 'numRun'/,
    ],
    [
      "numRuns '3'",
      () => checkUsageReporter(referenceUsageReporter, { numRuns: '3' } as never),
      /^checkUsageReporter: option 'numRuns' must be a positive integer/,
    ],
    [
      'numRuns -1',
      () => checkUsageReporter(referenceUsageReporter, { numRuns: -1 }),
      /^checkUsageReporter: option 'numRuns' must be a positive integer/,
    ],
    [
      'scenarioDir 5',
      () => checkWebhookHandler(referenceWebhookReceiver, { scenarioDir: 5 } as never),
      /^checkWebhookHandler: option 'scenarioDir' must be/,
    ],
    [
      'maxSteps -1',
      () => checkUsageReporter(referenceUsageReporter, { maxSteps: -1 }),
      /^checkUsageReporter: option 'maxSteps' must be a positive integer/,
    ],
    [
      'faults.preset',
      () => checkUsageReporter(referenceUsageReporter, { faults: { preset: 'wild' } } as never),
      /^checkUsageReporter: option 'faults.preset'/,
    ],
    ['assertRun without subject', () => assertRun(usage, {}), /^assertRun: options must give a subject/],
    [
      'assertRun reporterr',
      () => assertRun(usage, { reporterr: referenceUsageReporter } as never),
      /^assertRun: unknown option 'reporterr'/,
    ],
    [
      'unknown step kind',
      () => runProgram({ seed: 1, steps: [{ kind: 'reprt' }], faults: [] } as never, { reporter: referenceUsageReporter }),
      /^runProgram: step 0 has unknown kind 'reprt' \(expected one of report, advance, emit, burst, resend, forge, receiver, roll_secret, restart\)/,
    ],
    ['runProgram without subject', () => runProgram(usage, {}), /^runProgram: options must give a subject/],
    [
      'runProgram faults.preset',
      () => runProgram(usage, { reporter: referenceUsageReporter, faults: { preset: 'wild' } } as never),
      /^runProgram: option 'faults.preset'/,
    ],
    [
      'runProgram unknown option given as undefined',
      () => runProgram(usage, { reporter: referenceUsageReporter, reporterr: undefined } as never),
      /^runProgram: unknown option 'reporterr'/,
    ],
    [
      'runProgram unknown faults key given as undefined',
      () => runProgram(usage, { reporter: referenceUsageReporter, faults: { preset: 'realistic', rate: undefined } } as never),
      /^runProgram: unknown option 'faults.rate'/,
    ],
    [
      'runProgram drainMs -1',
      () => runProgram(usage, { reporter: referenceUsageReporter, drainMs: -1 }),
      /^runProgram: option 'drainMs' must be a non-negative integer/,
    ],
    [
      'reporter not a function',
      () => runProgram(usage, { reporter: {} as never }),
      /^runProgram: option 'reporter' must be a reporter factory/,
    ],
    [
      'receiver factory returns junk',
      () => checkWebhookHandler((() => ({ handler: () => new Response('') })) as never, { numRuns: 3 }),
      /^checkWebhookHandler: receiver factory must return \{ handler, state \}/,
    ],
    [
      'reporter factory returns junk',
      () => runProgram(usage, { reporter: (() => ({})) as never }),
      /^runProgram: reporter factory must return \{ report \}/,
    ],
  ]
  for (const [label, call, message] of cases) {
    it(`refuses ${label}`, async () => {
      await expect(call()).rejects.toThrow(message)
    })
  }
})
