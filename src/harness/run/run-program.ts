import { signatureHeader } from '#domain/delivery/signature.js'
import type { FaultsInput } from '#faults/fault-policy.js'
import type { FaultEntry } from '#faults/faults-schema.js'
import { headerNames } from '#kernel/header-names.js'
import { continueAs, type Simulator } from '../../simulator/create-simulator.js'
import { checkClient } from '../checkers/client-checker.js'
import { checkDeliveries } from '../checkers/delivery-checker.js'
import { checkReceiver } from '../checkers/receiver-checker.js'
import { checkUsage } from '../checkers/usage-checker.js'
import type { Violation } from '../checkers/violation.js'
import type { UsageReporter, UsageReporterFactory, WebhookReceiver, WebhookReceiverFactory } from '../subjects.js'
import { HarnessInputError, validateProgram, validateRunOptions } from '../validate-input.js'
import { drive } from './drive.js'
import { createEngine, type EngineOptions, type EngineReceiver, type StepEngine } from './engine.js'
import { type Forgery, type Program, type Step, stepLabel } from './program.js'
import {
  HARNESS_EVENT_NAME,
  HARNESS_RECEIVER_URL,
  needsOf,
  type PreparedRun,
  prepareRun,
  type Setup,
  SUBJECT_EVENT_TYPES,
  setUp,
  setupSimulator,
} from './setup.js'

export { HARNESS_EVENT_NAME, HARNESS_RECEIVER_URL } from './setup.js'

/** The user's code under test: a usage reporter, a webhook handler, or both. */
export interface Subjects {
  readonly reporter?: UsageReporterFactory | undefined
  readonly webhook?: WebhookReceiverFactory | undefined
}

export interface RunOptions extends Subjects {
  /** Fault rates (`{ preset: 'realistic' }`, `{ swarm: true }`, `policy.rates`); the program adds its schedule. */
  readonly faults?: Omit<FaultsInput, 'schedule'> | undefined
  /** Virtual ms a single `report` may take before it counts as hung. Default 2 hours. */
  readonly reportBudgetMs?: number | undefined
  /** Virtual ms the run continues after the last step (retries, processing, receiver work). Default 4 hours. */
  readonly drainMs?: number | undefined
  /**
   * A simulator of the user's own (accounts, objects, destinations...) every run starts from
   * instead of an empty one: the harness's setup is made on a fork of it, and each run goes on
   * with its program's seed and the run's faults (`faults` and the program's schedule). The base
   * is read once, at the first run that names it (forked and set up then): change it afterwards
   * and pass a fork of it (`base.fork()`) to have runs start from the new state.
   */
  readonly base?: Simulator | undefined
  /**
   * Default true: the scenario's setup (`setUp`: the meter, price, customers, subscriptions and
   * destinations, through `sim.fetch`) is made once per combination of subjects (and `base`), and
   * every run forks that prepared simulator. False: every run builds and sets up a simulator of
   * its own. Same program, same trace hash.
   */
  readonly fork?: boolean | undefined
}

/** What one run produced. */
export interface RunReport {
  readonly sim: Simulator
  readonly violations: readonly Violation[]
  /** Fault labels that fired, with counts. */
  readonly fired: Readonly<Record<string, number>>
  readonly traceHash: string
}

/** URL of the second endpoint whose secret an `other_endpoint` forgery uses (nothing is routed to it). */
const OTHER_ENDPOINT_URL = 'https://hooks.harness.test/other'
/** How long a rolled signing secret stays valid next to the new one. */
const ROLL_OVERLAP_MS = 24 * 3_600_000
/** How long the forger waits for the receiver's answer (virtual ms). */
const FORGE_BUDGET_MS = 60_000
const STATES = ['requires_payment_method', 'processing', 'succeeded'] as const
const TYPES = SUBJECT_EVENT_TYPES

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
  /** The step engine the run executes on (its step records and fault decisions). */
  readonly engine: StepEngine
  /** Number of steps executed. */
  readonly steps: number
  /** Settles once the setup is made and the subjects are wired (`exec` and `finish` wait for it). */
  readonly ready: Promise<void>
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
export function openRun(
  api: string,
  seed: number,
  options: RunOptions,
  schedule: readonly FaultEntry[] = [],
  engineOptions: EngineOptions = {},
  start?: PreparedRun,
): HarnessRun {
  const next = { seed, faults: { ...options.faults, schedule: [...schedule] } }
  let sim: Simulator
  let made: Promise<Setup>
  if (start !== undefined) {
    sim = start.sim.fork(next)
    made = Promise.resolve(start.setup)
  } else {
    const fresh = setupSimulator(options)
    sim = fresh
    made = setUp(fresh, needsOf(options)).then((setup) => {
      continueAs(fresh, next)
      return setup
    })
  }
  const engine = createEngine(sim, engineOptions)
  const trace = sim.service.kernel.trace
  const clientRng = sim.service.kernel.rng.stream('harness.client')
  let setup: Setup = { customers: [] }
  let reporter: UsageReporter | undefined
  // The webhook path is the service's own: an event destination, the real routing, signing, retry
  // scheduler and transport, with the user's receiver mounted in process. Delivery faults reach it
  // through the fault hooks (`hooks.deliveryFault`, per attempt: slow network, transport failures,
  // duplicates, reordering) and the step engine (receiver down/up, an attacker's replay).
  let receiver: WebhookReceiver | undefined
  // Events the receiver said it acknowledged without caring (no effect, no state expected of them).
  const skipped = new Set<string>()
  let destination: string | undefined
  let control: EngineReceiver | undefined
  // The subjects are made once the simulator goes on with the run's seed: what they draw at
  // construction is then the same whether the simulator was forked or built.
  function wire(): void {
    const meter = setup.meter
    if (options.reporter && meter !== undefined) {
      reporter = options.reporter({
        fetch: sim.fetch,
        clock: sim.clock,
        baseUrl: 'https://api.service.test',
        meterEventsUrl: 'https://meter-events.service.test',
        secretKey: sim.platform.secretKey.test,
        eventName: HARNESS_EVENT_NAME,
        customerKey: meter.customerKey,
        valueKey: meter.valueKey,
        prefix: sim.service.kernel.prefix,
        random: () => clientRng.next(),
      })
      if (typeof (reporter as Partial<UsageReporter> | undefined)?.report !== 'function')
        throw new HarnessInputError(`${api}: reporter factory must return { report }`)
    }
    const d = setup.destination
    if (options.webhook && d !== undefined) {
      destination = d
      receiver = options.webhook({
        // Oldest first, newest last (the service keeps them newest first).
        secrets: () => sim.admin.signingSecrets(d).reverse(),
        clock: sim.clock,
        prefix: sim.service.kernel.prefix,
        effects: {
          record: (event, effect) => void trace.append('harness.effect', { event, effect }),
          skip: (event) => {
            skipped.add(event)
            trace.append('harness.skipped', { event })
          },
        },
      })
      const made = receiver as Partial<WebhookReceiver> | undefined
      if (typeof made?.handler !== 'function' || typeof made.state !== 'function')
        throw new HarnessInputError(`${api}: receiver factory must return { handler, state }`)
      const subject = receiver
      control = engine.mount({
        name: 'subject',
        url: HARNESS_RECEIVER_URL,
        handler: (req) => subject.handler(req),
        onSwitch: (down) => void trace.append('harness.receiver', { down }),
      })
    }
  }
  const ready = made.then((s) => {
    setup = s
    wire()
  })
  // Awaited by every step and by `finish`; a caller that never steps gets no unhandled rejection.
  ready.catch(() => undefined)
  const units: { id: string; customer: string; value: number }[] = []
  const objects = new Map<string, number>()
  const emitted: { event: string; object: string; status: string }[] = []
  const forgedObjects: string[] = []
  /** Secrets the endpoint had at some point, to find one a roll retired. */
  const seenSecrets = new Set<string>()
  let otherSecret: string | undefined
  let burstObjects = 0

  function emitOne(object: string, amount: number): boolean {
    const next = (objects.get(object) ?? -1) + 1
    if (next >= STATES.length) return false
    objects.set(object, next)
    const status = STATES[next] as string
    // The event fans out to the destination at once; its first attempt is due now (or later, faulted).
    const event = sim.admin.trigger(TYPES[next] as string, { object: { id: object, amount, currency: 'usd', status } })
    emitted.push({ event: event.id, object, status })
    trace.append('harness.emitted', { event: event.id, object, status })
    return true
  }

  async function forge(forgery: Forgery): Promise<void> {
    if (destination === undefined || !receiver || !control) return
    const d = destination
    const n = forgedObjects.length + 1
    const object = `pi_forged${n}`
    const event = `evt_forged${n}`
    forgedObjects.push(object)
    const now = sim.clock.now
    const body = (amount: number, status: string) =>
      JSON.stringify(
        {
          id: event,
          object: 'event',
          created: Math.floor(now / 1000),
          data: { object: { id: object, object: 'payment_intent', amount, currency: 'usd', status } },
          livemode: false,
          type: 'payment_intent.succeeded',
        },
        null,
        2,
      )
    const active = sim.admin.signingSecrets(d)
    for (const s of active) seenSecrets.add(s)
    let sent = body(100, 'succeeded')
    let signed = sent
    let secret = active[0] as string
    let t = Math.floor(now / 1000)
    switch (forgery) {
      case 'new_id':
        // A genuine-looking signature over other bytes (the attacker's captured header), with a new event id.
        signed = sent.replace(event, `${event}x`)
        break
      case 'altered_body':
        signed = body(1, 'processing')
        break
      case 'wrong_secret':
        secret = `whsec_forged${String(Math.floor(clientRng.next() * 1e12))}`
        break
      case 'expired_secret': {
        const retired = [...seenSecrets].find((s) => !active.includes(s))
        secret = retired ?? `whsec_retired${String(Math.floor(clientRng.next() * 1e12))}`
        break
      }
      case 'stale_timestamp':
        t -= 600
        break
      case 'other_endpoint':
        if (otherSecret === undefined) {
          const other = sim.service.destinations.create(
            { account: sim.platform.id, mode: 'test' },
            {
              name: 'another endpoint',
              type: 'webhook_endpoint',
              event_payload: 'snapshot',
              enabled_events: ['charge.refunded'],
              webhook_endpoint: { url: OTHER_ENDPOINT_URL },
            },
          )
          otherSecret = sim.admin.signingSecrets(other.id)[0] as string
        }
        secret = otherSecret
        break
    }
    if (forgery === 'new_id') sent = body(100, 'succeeded')
    const names = headerNames(sim.service.kernel.prefix)
    const header = signatureHeader(signed, [secret], t, { test: true })
    let status: number | null = null
    let outcome: string
    if (control.down) outcome = 'connect_error'
    else {
      const request = new Request(HARNESS_RECEIVER_URL, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json; charset=utf-8', [names.signature]: header },
        body: sent,
      })
      const subject = receiver
      const r = await drive(
        sim,
        Promise.resolve().then(() => subject.handler(request)),
        FORGE_BUDGET_MS,
      )
      if (r.state === 'ok' && r.value instanceof Response) {
        status = r.value.status
        outcome = status < 300 ? 'accepted' : 'refused'
      } else outcome = r.state === 'hung' ? 'timeout' : 'error'
    }
    trace.append('harness.forged', { forgery, event, object, outcome, status })
  }

  async function exec(step: Step): Promise<void> {
    await ready
    await engine.run(step.kind, stepLabel(step), () => act(step))
  }

  async function act(step: Step): Promise<void> {
    switch (step.kind) {
      case 'report': {
        if (!reporter) break
        const batch = Array.from({ length: step.units }, () => {
          const n = units.length + 1
          // A repeating customer is one the setup created (past its pool: a name of its own).
          const customer = step.customer === undefined ? `cus_u${n}` : (setup.customers[step.customer] ?? `cus_c${step.customer}`)
          const unit = { id: `u${n}`, customer, value: step.value }
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
        await engine.advance(step.ms)
        break
      case 'emit': {
        if (!destination) break
        if (emitOne(`pi_h${step.object}`, 1000 + step.object)) await engine.advance(0)
        break
      }
      case 'burst': {
        if (!destination) break
        // Round-robin over fresh objects: every object's first state, then the second, then the third.
        const n = Math.ceil(step.events / STATES.length)
        const base = burstObjects
        burstObjects += n
        for (let i = 0; i < step.events; i++) emitOne(`pi_b${base + (i % n)}`, 2000 + base + (i % n))
        await engine.advance(0)
        break
      }
      case 'resend': {
        if (!destination) break
        await engine.advance(step.afterMs)
        if (emitted.length === 0) break
        const e = emitted[step.event % emitted.length] as { event: string }
        try {
          void sim.admin.resend(e.event, destination).catch(() => undefined)
        } catch {
          // Older than the dashboard's window: refused at once, nothing sent.
          break
        }
        await engine.advance(0)
        break
      }
      case 'forge':
        await forge(step.forgery)
        break
      case 'receiver':
        control?.set(!step.up)
        break
      case 'roll_secret':
        if (destination) {
          for (const s of sim.admin.signingSecrets(destination)) seenSecrets.add(s)
          sim.admin.rollSecret(destination, { overlapMs: ROLL_OVERLAP_MS })
        }
        break
    }
  }

  async function finish(): Promise<RunReport> {
    await ready
    await engine.advance(options.drainMs ?? 4 * 3_600_000)
    await sim.settle()
    if (units.length > 0) {
      // Accounted per customer: customers (and values) may repeat across units.
      const customers = [...new Set(units.map((u) => u.customer))]
      // The service's own aggregates (what `sim.admin.meterSummary` reads), the meter looked up once.
      const m = setup.meter === undefined ? undefined : { id: setup.meter.id }
      const totals = customers.map((customer) => {
        const s = m === undefined ? { count: 0, sum: 0 } : sim.service.meterEvents.window(m, customer, -Infinity, Infinity)
        return { customer, count: s.count, sum: s.sum }
      })
      trace.append('harness.usage.totals', { customers: totals })
    }
    if (receiver && destination !== undefined) {
      const delivered = new Set(
        sim.admin
          .deliveries({ destination })
          .filter((r) => r.attempts.some((a) => a.outcome === 'delivered'))
          .map((r) => r.eventId),
      )
      const expected = new Map<string, string>()
      for (const e of emitted) if (delivered.has(e.event) && !skipped.has(e.event)) expected.set(e.object, e.status)
      const state = receiver.state() as Readonly<Record<string, string>> | null | undefined
      if (state === null || typeof state !== 'object')
        throw new HarnessInputError(`${api}: receiver.state() must return a record of object id to status`)
      for (const [object, status] of expected) {
        trace.append('harness.state', { object, expected: status, actual: state[object] ?? null })
      }
      // A forged delivery must leave no state behind.
      for (const object of forgedObjects) trace.append('harness.state', { object, expected: null, actual: state[object] ?? null })
    }
    const entries = trace.entries()
    const violations: Violation[] = []
    if (reporter) violations.push(...checkUsage(entries), ...checkClient(entries))
    if (receiver) violations.push(...checkReceiver(entries), ...checkDeliveries(entries))
    return { sim, violations, fired: sim.faults.fired(), traceHash: trace.hash() }
  }

  return {
    sim,
    engine,
    ready,
    get steps() {
      return engine.count
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
  const start = options.fork === false ? undefined : await preparedFor(options)
  const run = openRun(api, program.seed, options, program.faults, {}, start)
  for (const step of program.steps) await run.exec(step)
  return run.finish()
}

// The prepared simulators: a setup depends only on the subjects present and the base (faults and
// seeds come after it, the subjects are made per run), so one per combination serves every run of
// every check, including `assertRun` called with a new options object each time. Those on a base
// are held weakly with it; the others (at most three) for the process.
const preparedShared = new Map<string, Promise<PreparedRun>>()
const preparedOnBase = new WeakMap<Simulator, Map<string, Promise<PreparedRun>>>()

function preparedFor(options: RunOptions): Promise<PreparedRun> {
  const needs = needsOf(options)
  const key = `${needs.reporter ? 'reporter' : ''}+${needs.webhook ? 'webhook' : ''}`
  let cache = preparedShared
  if (options.base !== undefined) {
    cache = preparedOnBase.get(options.base) ?? new Map()
    preparedOnBase.set(options.base, cache)
  }
  let p = cache.get(key)
  if (p === undefined) {
    p = prepareRun(options)
    cache.set(key, p)
    // A failed setup is not kept: the next run tries again (and reports the failure itself).
    p.catch(() => cache.delete(key))
  }
  return p
}
