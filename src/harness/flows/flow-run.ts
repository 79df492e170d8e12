import type { FaultsInput } from '#faults/index.js'
import { TextRequest } from '#http/index.js'
import type { Clock, TraceEntry } from '#kernel/index.js'
import type { Simulator } from '#simulator/index.js'
import type { Violation } from '../checkers/violation.js'
import type { SimulatorChoice } from '../run/simulator-choice.js'
import { createStepRunner, type StepRunnerOptions } from '../run/step-runner.js'
import { type FlowAction, type FlowActionContext, flowActions, flowApi } from './flow-actions.js'
import { type FlowProgram, flowStepLabel } from './flow-program.js'
import { FLOW_EVENT_TYPES, FLOW_RECEIVER_URL, type FlowSetup, preparedFlow } from './flow-setup.js'

/** Virtual time each step leaves its deliveries before the next (past every delay a fault adds). */
export const FLOW_STEP_SETTLE_MS = 30_000
/** Virtual time the run ends with, the receiver up: past the test-mode retry window of its deliveries. */
export const FLOW_FINAL_SETTLE_MS = 6 * 3_600_000
/** Name of the client's receiver on the step runner (what `receiver_down` faults take down). */
export const FLOW_RECEIVER = 'client'

/** What a billing client under test is given (a webhook receiver that may also read the API). */
export interface FlowClientEnv {
  /** Signing secrets of the destination, oldest first, newest last. */
  secrets(): readonly string[]
  readonly clock: Clock
  /** Header prefix (`Service` or `Stripe`). */
  readonly prefix: string
  /** `fetch` of the simulated service, for the client's API reads (faults reach them). */
  readonly fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>
  /** Base URL of the API, e.g. `https://api.service.test`. */
  readonly baseUrl: string
  /** Secret key of the account. */
  readonly secretKey: string
}

/** One run of a billing flow as a subject sees it. */
export interface FlowRun {
  readonly sim: Simulator
  readonly setup: FlowSetup
  /** Event ids the client answered with a 2xx (what it has seen and accepted). */
  readonly acked: ReadonlySet<string>
  readonly env: FlowClientEnv
  /** The subscriptions made so far, in order of creation. */
  readonly subscriptions: readonly string[]
  /** The latest event the destination was sent about each object (subscription, invoice), by object id. */
  readonly latest: ReadonlyMap<string, string>
}

/**
 * A kind of client code a billing flow property attacks: how its client is made and mounted,
 * what it records after each step (trace entries its checkers read) and the checkers. A
 * fulfilment property plugs in the same way, with its own steps as `actions`.
 *
 * @example
 * const subject: FlowSubject = { start: (run) => myClient(run.env), checkpoint: () => undefined, check: () => [] }
 */
export interface FlowSubject {
  /** Makes the client of one run; its `handler` answers the deliveries. */
  start(run: FlowRun): { handler(request: Request): Response | Promise<Response> }
  /** Records what the checkers read, after each step has settled and at the end (`final`). */
  checkpoint(run: FlowRun, final: boolean): void
  /** The checkers of the property over the run's trace. */
  check(entries: readonly TraceEntry[]): Violation[]
  /** Event types the destination sends the client (default `FLOW_EVENT_TYPES`). */
  readonly eventTypes?: readonly string[]
  /** Actions of the property's own step kinds (`x:...`), made with the subject (so they reach its client). */
  readonly actions?: Readonly<Record<string, FlowAction>>
}

/** How to run billing flows. */
export interface FlowRunOptions extends SimulatorChoice {
  /** Fault rates added to the program's schedule. */
  readonly faults?: Omit<FaultsInput, 'schedule'>
  /** Actions for step kinds another property adds (`x:...`), by kind. */
  readonly actions?: Readonly<Record<string, FlowAction>>
  /** Called after every step with its record and fault decisions (a replay's timeline). */
  readonly onStep?: StepRunnerOptions['onStep']
  /** Gets the run's whole trace at the end (a replay's report reads it). */
  readonly onTrace?: (entries: readonly TraceEntry[]) => void
}

/** The outcome of one billing flow run. */
export interface FlowReport {
  readonly violations: readonly Violation[]
  readonly traceHash: string
  /** Step labels as executed (a no-op says why). */
  readonly steps: readonly string[]
}

function ackingHandler(sim: Simulator, client: ReturnType<FlowSubject['start']>, acked: Set<string>) {
  const trace = sim.service.kernel.trace
  return async (request: Request): Promise<Response> => {
    const raw = await TextRequest.textOf(request)
    let res: Response
    try {
      res = await client.handler(request)
    } catch {
      res = new Response('thrown', { status: 500 })
    }
    if (!(res instanceof Response)) return new Response('not a Response', { status: 500 })
    if (res.status >= 200 && res.status < 300) {
      try {
        const event = JSON.parse(raw) as { id?: unknown; type?: unknown; data?: { object?: { id?: unknown } } }
        if (typeof event.id === 'string') {
          acked.add(event.id)
          trace.append('harness.flow.ack', { event: event.id, type: event.type, object: event.data?.object?.id })
        }
      } catch {
        // Not an event (a forgery's body): nothing acknowledged.
      }
    }
    return res
  }
}

/**
 * Runs one billing flow program against a subject on a fork of the prepared setup: each step
 * through the step runner (its faults armed), then `FLOW_STEP_SETTLE_MS` of deliveries and the
 * subject's checkpoint; at the end the receiver is brought up, `FLOW_FINAL_SETTLE_MS` pass, the
 * final checkpoint is taken and the subject's checkers judge the trace. Same program: same hash.
 *
 * @example
 * const report = await runFlow(program, mirrorSubject(referenceSubscriptionMirror, {}), {})
 */
export async function runFlow(program: FlowProgram, subject: FlowSubject, options: FlowRunOptions = {}): Promise<FlowReport> {
  const prepared = await preparedFlow(options, subject.eventTypes)
  const sim = prepared.sim.fork({ seed: program.seed, faults: { ...options.faults, schedule: [...program.faults] } })
  const runner = createStepRunner(sim, options.onStep === undefined ? {} : { onStep: options.onStep })
  const acked = new Set<string>()
  const subscriptions: string[] = []
  const d = prepared.setup.destination
  const env: FlowClientEnv = {
    // Read off the destinations, not `sim.admin`: building the admin surface costs a run more.
    secrets: () => {
      const destination = sim.service.destinations.find(d)
      return destination === undefined
        ? sim.admin.signingSecrets(d).reverse()
        : sim.service.destinations.activeSecrets(destination).reverse()
    },
    clock: sim.clock,
    prefix: sim.service.kernel.prefix,
    fetch: sim.fetch,
    baseUrl: 'https://api.service.test',
    secretKey: sim.platform.secretKey.test,
  }
  const latest = new Map<string, string>()
  const types = new Set<string>(subject.eventTypes ?? FLOW_EVENT_TYPES)
  sim.service.events.subscribe((e) => {
    if (types.has(e.type) && e.objectId !== undefined) latest.set(e.objectId, e.id)
  })
  const run: FlowRun = { sim, setup: prepared.setup, acked, env, subscriptions, latest }
  const client = subject.start(run)
  const control = runner.mount({ name: FLOW_RECEIVER, url: FLOW_RECEIVER_URL, handler: ackingHandler(sim, client, acked) })
  let n = 0
  const ctx: FlowActionContext = { sim, setup: prepared.setup, subscriptions, api: flowApi(sim, () => `flow-${++n}`) }
  const labels: string[] = []
  for (const step of program.steps) {
    const record = await runner.run(step.kind, flowStepLabel(step), async () => {
      let note: string | undefined
      if (step.kind === 'advance') await runner.advance(step.ms)
      else {
        const action = subject.actions?.[step.kind] ?? options.actions?.[step.kind] ?? flowActions[step.kind]
        if (action === undefined) throw new TypeError(`runFlow: no action for step kind '${step.kind}'`)
        note = await action(ctx, step)
      }
      await runner.advance(FLOW_STEP_SETTLE_MS)
      subject.checkpoint(run, false)
      return note === undefined ? undefined : `${flowStepLabel(step)} (${note})`
    })
    labels.push(record.label)
  }
  control.set(false)
  await runner.advance(FLOW_FINAL_SETTLE_MS)
  subject.checkpoint(run, true)
  options.onTrace?.(sim.trace.entries())
  return { violations: subject.check(sim.trace.entries()), traceHash: sim.trace.hash(), steps: labels }
}
