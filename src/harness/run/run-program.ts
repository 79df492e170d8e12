import type { StoredEvent } from '#domain/events/event.js'
import { createSimulator, type Simulator } from '../../simulator/create-simulator.js'
import { checkClient } from '../checkers/client-checker.js'
import { checkDeliveries } from '../checkers/delivery-checker.js'
import { checkReceiver } from '../checkers/receiver-checker.js'
import { checkUsage } from '../checkers/usage-checker.js'
import type { Violation } from '../checkers/violation.js'
import type { FaultsInput } from '../faults/fault-policy.js'
import type { FaultEntry } from '../scenario/faults-schema.js'
import type { UsageReporter, UsageReporterFactory, WebhookHandlerFactory, WebhookSubject } from '../subjects.js'
import { createDeliveryChannel, type DeliveryChannel } from './delivery-channel.js'
import { advance, drive } from './drive.js'
import type { Program, Step } from './program.js'

/** The user's code under test: a usage reporter, a webhook handler, or both. */
export interface Subjects {
  readonly reporter?: UsageReporterFactory | undefined
  readonly webhook?: WebhookHandlerFactory | undefined
}

export interface RunOptions extends Subjects {
  /** Fault rates (`{ preset: 'realistic' }`, `{ swarm: true }`, `policy.rates`); the program adds its schedule. */
  readonly faults?: Omit<FaultsInput, 'schedule'> | undefined
  /** Virtual ms a single `report` may take before it counts as hung. Default 2 hours. */
  readonly reportBudgetMs?: number | undefined
  /** Virtual ms the run continues after the last step (retries, processing, receiver work). Default 4 hours. */
  readonly drainMs?: number | undefined
}

/** What one run produced. */
export interface RunReport {
  readonly sim: Simulator
  readonly violations: readonly Violation[]
  /** Fault labels that fired, with counts. */
  readonly fired: Readonly<Record<string, number>>
  readonly traceHash: string
}

/** Meter event name the harness's usage goes to. */
export const HARNESS_EVENT_NAME = 'harness_usage'
/** URL of the receiver under test. */
export const HARNESS_RECEIVER_URL = 'https://hooks.harness.test/webhooks'
const STATES = ['requires_payment_method', 'processing', 'succeeded'] as const
const TYPES = ['payment_intent.created', 'payment_intent.processing', 'payment_intent.succeeded'] as const

/**
 * One harness run in progress: a simulator, the subjects wired to it, and the steps so far. Model
 * commands drive it step by step; `runProgram` drives it from a program.
 *
 * @example
 * const run = startRun(7, { reporter: referenceUsageReporter })
 * await run.exec({ kind: 'report', units: 2, value: 1 })
 * const report = await run.finish()
 */
export interface HarnessRun {
  readonly sim: Simulator
  /** Number of steps executed. */
  readonly steps: number
  exec(step: Step): Promise<void>
  finish(): Promise<RunReport>
}

/**
 * Starts a run on a fresh simulator with the given seed and fault schedule.
 *
 * @example
 * const run = startRun(1, { webhook: referenceWebhookReceiver }, [{ step: 1, fault: 'duplicate_delivery' }])
 */
export function startRun(seed: number, options: RunOptions, schedule: readonly FaultEntry[] = []): HarnessRun {
  const sim = createSimulator({ seed, faults: { ...options.faults, schedule: [...schedule] } })
  const trace = sim.service.kernel.trace
  const meter = sim.admin.createMeter({ eventName: HARNESS_EVENT_NAME }) as {
    id: string
    customer_mapping: { event_payload_key: string }
    value_settings: { event_payload_key: string }
  }
  const clientRng = sim.service.kernel.rng.stream('harness.client')
  let reporter: UsageReporter | undefined
  if (options.reporter) {
    reporter = options.reporter({
      fetch: sim.fetch,
      clock: sim.clock,
      baseUrl: 'https://api.service.test',
      secretKey: sim.platform.secretKey.test,
      eventName: HARNESS_EVENT_NAME,
      customerKey: meter.customer_mapping.event_payload_key,
      valueKey: meter.value_settings.event_payload_key,
      prefix: sim.service.kernel.prefix,
      random: () => clientRng.next(),
    })
  }
  let subject: WebhookSubject | undefined
  let channel: DeliveryChannel | undefined
  if (options.webhook) {
    const factory = options.webhook
    channel = createDeliveryChannel(sim, () => subject as WebhookSubject, HARNESS_RECEIVER_URL)
    const ch = channel
    subject = factory({
      secrets: () => ch.secrets(),
      clock: sim.clock,
      prefix: sim.service.kernel.prefix,
      effects: { record: (event, effect) => void trace.append('harness.effect', { event, effect }) },
    })
  }
  const units: { id: string; customer: string; value: number }[] = []
  const objects: number[] = []
  const emitted: { event: StoredEvent; object: string; status: string }[] = []
  let count = 0

  async function exec(step: Step): Promise<void> {
    count++
    sim.faults.step(count)
    switch (step.kind) {
      case 'report': {
        if (!reporter) break
        const batch = Array.from({ length: step.units }, () => {
          const n = units.length + 1
          const unit = { id: `u${n}`, customer: `cus_u${n}`, value: step.value }
          units.push(unit)
          return unit
        })
        const r = await drive(sim, reporter.report(batch), options.reportBudgetMs ?? 2 * 3_600_000)
        for (const u of batch) {
          trace.append('harness.usage', {
            ...u,
            outcome: r.state === 'ok' ? 'acked' : r.state === 'error' ? 'failed' : 'hung',
            ...(r.state === 'error' ? { error: String((r.error as Error)?.message ?? r.error) } : {}),
          })
        }
        break
      }
      case 'advance':
        await advance(sim, step.ms)
        break
      case 'emit': {
        if (!channel) break
        const k = step.object
        const next = objects[k] === undefined ? 0 : (objects[k] as number) + 1
        if (next >= STATES.length) break
        objects[k] = next
        const object = { id: `pi_h${k}`, object: 'payment_intent', amount: 1000 + k, currency: 'usd', status: STATES[next] }
        const event = sim.service.events.snapshot({ type: TYPES[next] as string, account: sim.platform.id, mode: 'test', object })
        emitted.push({ event, object: object.id, status: object.status as string })
        trace.append('harness.emitted', { event: event.id, object: object.id, status: object.status })
        channel.send(event)
        await advance(sim, 0)
        break
      }
      case 'receiver':
        if (channel) channel.setDown(!step.up)
        break
      case 'roll_secret':
        if (channel) channel.roll()
        break
    }
  }

  async function finish(): Promise<RunReport> {
    await advance(sim, options.drainMs ?? 4 * 3_600_000)
    await sim.settle()
    for (const u of units) {
      const s = sim.admin.meterSummary({ meter: meter.id, customer: u.customer })
      trace.append('harness.usage.total', { id: u.id, customer: u.customer, count: s.count, sum: s.sum })
    }
    if (subject) {
      const delivered = new Set(
        trace
          .entries()
          .filter((e) => e.kind === 'harness.delivery' && e.data.outcome === 'delivered' && e.data.replay !== true)
          .map((e) => String(e.data.event)),
      )
      const expected = new Map<string, string>()
      for (const e of emitted) if (delivered.has(e.event.id)) expected.set(e.object, e.status)
      const state = subject.state()
      for (const [object, status] of expected) {
        trace.append('harness.state', { object, expected: status, actual: state[object] ?? null })
      }
    }
    const entries = trace.entries()
    const violations: Violation[] = []
    if (reporter) violations.push(...checkUsage(entries), ...checkClient(entries))
    if (subject) violations.push(...checkReceiver(entries), ...checkDeliveries(entries))
    return { sim, violations, fired: sim.faults.fired(), traceHash: trace.hash() }
  }

  return {
    sim,
    get steps() {
      return count
    },
    exec,
    finish,
  }
}

/**
 * Runs one program against the subjects and checks the history: usage (exactly once, at most once,
 * acknowledged, bounds), client behaviour (session refresh, backoff), receiver behaviour and
 * delivery outcomes. Same program and options: the same trace hash.
 *
 * @example
 * const report = await runProgram(program, { reporter: referenceUsageReporter, faults: { preset: 'realistic' } })
 * report.violations // [] for a correct client
 */
export async function runProgram(program: Program, options: RunOptions): Promise<RunReport> {
  const run = startRun(program.seed, options, program.faults)
  for (const step of program.steps) await run.exec(step)
  return run.finish()
}
