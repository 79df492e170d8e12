import type { Destination } from '#domain/destinations/destination.js'
import type { FaultsInput } from '#faults/fault-policy.js'
import type { FaultEntry } from '#faults/faults-schema.js'
import { createSimulator, type Simulator } from '../../simulator/create-simulator.js'
import { checkClient } from '../checkers/client-checker.js'
import { checkDeliveries } from '../checkers/delivery-checker.js'
import { checkReceiver } from '../checkers/receiver-checker.js'
import { checkUsage } from '../checkers/usage-checker.js'
import type { Violation } from '../checkers/violation.js'
import type { UsageReporter, UsageReporterFactory, WebhookHandlerFactory, WebhookSubject } from '../subjects.js'
import { HarnessInputError, validateProgram, validateRunOptions } from '../validate-input.js'
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
  /**
   * A prepared simulator each run forks (`base.fork()`) instead of building its own: faster when
   * many runs share one setup. Its seed and fault rates apply; a program's fault schedule cannot.
   */
  readonly base?: Simulator | undefined
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
/** URL of the receiver under test (mounted with `sim.receivers.mount`). */
export const HARNESS_RECEIVER_URL = 'https://hooks.harness.test/webhooks'
/** How long a rolled signing secret stays valid next to the new one. */
const ROLL_OVERLAP_MS = 24 * 3_600_000
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
  validateRunOptions('startRun', options)
  validateProgram('startRun', { seed, steps: [], faults: schedule })
  return openRun('startRun', seed, options, schedule)
}

/**
 * `startRun` without validating its input (the caller did), naming `api` when a subject misbehaves.
 *
 * @example
 * const run = openRun('checkUsageReporter', 1, { reporter }, [])
 */
export function openRun(api: string, seed: number, options: RunOptions, schedule: readonly FaultEntry[] = []): HarnessRun {
  if (options.base !== undefined && schedule.length > 0) {
    throw new HarnessInputError(`${api}: a run on a 'base' simulator cannot take a fault schedule (the base's faults apply)`)
  }
  const sim = options.base?.fork() ?? createSimulator({ seed, faults: { ...options.faults, schedule: [...schedule] } })
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
    if (typeof (reporter as Partial<UsageReporter> | undefined)?.report !== 'function')
      throw new HarnessInputError(`${api}: reporter factory must return { report }`)
  }
  // The webhook path is the service's own: an event destination, the real routing, signing, retry
  // scheduler and transport, with the user's handler mounted as an in-process receiver. Delivery
  // faults reach it through the fault hooks (`hooks.deliveryFault`, per attempt) and the
  // listeners below (receiver down/up, an attacker's replay).
  let subject: WebhookSubject | undefined
  let destination: Destination | undefined
  const setDown = (down: boolean) => {
    if (subject === undefined) return
    const handler = subject.handler.bind(subject)
    if (down) sim.receivers.unmount(HARNESS_RECEIVER_URL)
    else sim.receivers.mount(HARNESS_RECEIVER_URL, (req: Request) => handler(req))
    trace.append('harness.receiver', { down })
  }
  if (options.webhook) {
    const d = sim.service.destinations.create(
      { account: sim.platform.id, mode: 'test' },
      {
        name: 'harness receiver',
        type: 'webhook_endpoint',
        event_payload: 'snapshot',
        enabled_events: [...TYPES],
        webhook_endpoint: { url: HARNESS_RECEIVER_URL },
      },
    )
    destination = d
    subject = options.webhook({
      secrets: () => sim.admin.signingSecrets(d.id),
      clock: sim.clock,
      prefix: sim.service.kernel.prefix,
      effects: { record: (event, effect) => void trace.append('harness.effect', { event, effect }) },
    })
    const made = subject as Partial<WebhookSubject> | undefined
    if (typeof made?.handler !== 'function' || typeof made.state !== 'function')
      throw new HarnessInputError(`${api}: subject factory must return { handler, state }`)
    setDown(false)
    sim.faults.on('receiver_down', () => {
      setDown(true)
      return true
    })
    sim.faults.on('receiver_up', () => {
      setDown(false)
      return true
    })
    sim.faults.on('replay_delivery', () => sim.service.delivery.replay())
  }
  const units: { id: string; customer: string; value: number }[] = []
  const objects: number[] = []
  const emitted: { event: string; object: string; status: string }[] = []
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
        // One entry per batch (not per unit): the trace hash folds every entry, and runs are many.
        trace.append('harness.usage', {
          units: batch,
          outcome: r.state === 'ok' ? 'acked' : r.state === 'error' ? 'failed' : 'hung',
          ...(r.state === 'error' ? { error: String((r.error as Error)?.message ?? r.error) } : {}),
        })
        break
      }
      case 'advance':
        await advance(sim, step.ms)
        break
      case 'emit': {
        if (!destination) break
        const k = step.object
        const next = objects[k] === undefined ? 0 : (objects[k] as number) + 1
        if (next >= STATES.length) break
        objects[k] = next
        const status = STATES[next] as string
        const object = { id: `pi_h${k}`, amount: 1000 + k, currency: 'usd', status }
        // The event fans out to the destination at once; its first attempt is due now (or later, faulted).
        const event = sim.admin.trigger(TYPES[next] as string, { object })
        emitted.push({ event: event.id, object: object.id, status })
        trace.append('harness.emitted', { event: event.id, object: object.id, status })
        await advance(sim, 0)
        break
      }
      case 'receiver':
        setDown(!step.up)
        break
      case 'roll_secret':
        if (destination) sim.admin.rollSecret(destination.id, { overlapMs: ROLL_OVERLAP_MS })
        break
    }
  }

  async function finish(): Promise<RunReport> {
    await advance(sim, options.drainMs ?? 4 * 3_600_000)
    await sim.settle()
    if (units.length > 0) {
      const totals = units.map((u) => {
        const s = sim.admin.meterSummary({ meter: meter.id, customer: u.customer })
        return { id: u.id, count: s.count, sum: s.sum }
      })
      trace.append('harness.usage.totals', { units: totals })
    }
    if (subject && destination) {
      const delivered = new Set(
        sim.admin
          .deliveries({ destination: destination.id })
          .filter((r) => r.attempts.some((a) => a.outcome === 'delivered'))
          .map((r) => r.eventId),
      )
      const expected = new Map<string, string>()
      for (const e of emitted) if (delivered.has(e.event)) expected.set(e.object, e.status)
      const state = subject.state() as Readonly<Record<string, string>> | null | undefined
      if (state === null || typeof state !== 'object')
        throw new HarnessInputError(`${api}: subject.state() must return a record of object id to status`)
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
  validateProgram('runProgram', program)
  validateRunOptions('runProgram', options)
  return executeProgram('runProgram', program, options)
}

/**
 * `runProgram` without validating its input (the caller did once, not per generated program).
 *
 * @example
 * await executeProgram('checkUsageReporter', program, { reporter })
 */
export async function executeProgram(api: string, program: Program, options: RunOptions): Promise<RunReport> {
  const run = openRun(api, program.seed, options, program.faults)
  for (const step of program.steps) await run.exec(step)
  return run.finish()
}
