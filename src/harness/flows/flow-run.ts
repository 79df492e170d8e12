import type { FaultsInput } from '#faults/index.js'
import { TextRequest } from '#http/index.js'
import type { Clock, TraceEntry } from '#kernel/index.js'
import type { Simulator } from '#simulator/index.js'
import { checkFlowAdversity } from '../checkers/flow-adversity-checker.js'
import type { Violation } from '../checkers/violation.js'
import { createDurableStore, type DurableStore } from '../durable-store.js'
import { CausalRecorder } from '../rules/causal-recorder.js'
import type { EffectRecorder } from '../rules/effect-recorder.js'
import { objectState } from '../rules/object-state.js'
import type { FlowSimOptions, SimulatorChoice } from '../run/simulator-choice.js'
import { createStepRunner, type StepRunnerOptions } from '../run/step-runner.js'
import { type DeliveredEvent, deliveredEvent } from './delivered-event.js'
import { type FlowAction, type FlowActionContext, flowActions, flowApi } from './flow-actions.js'
import { runAdversityStep } from './flow-adversity.js'
import { FlowCoverage } from './flow-coverage.js'
import { FlowDeployment } from './flow-deploy.js'
import { type Claim, statusOfObject, watchAdoption } from './flow-forgery.js'
import type { FlowProgram } from './flow-program.js'
import { holdRunCrypto, releaseRunCrypto } from './flow-run-globals.js'
import { FLOW_EVENT_TYPES, FLOW_RECEIVER_URL, type FlowSetup, preparedFlow } from './flow-setup.js'
import { flowStepLabel } from './flow-step-label.js'
import { genuineDelivery } from './genuine-delivery.js'
import { watchSentEvents } from './sent-events.js'
import { onWallClock } from './wall-clock-receiver.js'

/** Virtual time each step leaves its deliveries before the next (past every delay a fault adds). */
export const FLOW_STEP_SETTLE_MS = 30_000
/** Virtual time the run ends with, the receiver up: past the test-mode retry window of its deliveries. */
export const FLOW_FINAL_SETTLE_MS = 6 * 3_600_000
/** Name of the client's receiver on the step runner (what `receiver_down` faults take down). */
export const FLOW_RECEIVER = 'client'

/** What a billing client under test is given (a webhook receiver that may also read the API). */
export interface FlowClientEnv {
  /**
   * Signing secrets of the destination as the app's environment had them when it was deployed,
   * oldest first, newest last (after a roll, the new one arrives with the next redeploy).
   */
  secrets(): readonly string[]
  /**
   * Signing secrets of the Connect endpoint (connected accounts' events, each with its `account`),
   * as deployed, oldest first; empty unless the subject receives them (`FlowSubject.connect`).
   */
  connectSecrets(): readonly string[]
  readonly clock: Clock
  /** Header prefix (`Service` or `Stripe`). */
  readonly prefix: string
  /** `fetch` of the simulated service, for the client's API reads (faults reach them). */
  readonly fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>
  /** Base URL of the API, e.g. `https://api.service.test`. */
  readonly baseUrl: string
  /** Secret key of the account. */
  readonly secretKey: string
  /** What the app keeps in its database: survives a redeploy, unlike the client's memory. */
  readonly store: DurableStore
  /** Where the app records what it did (an email, a shipment, a grant): what effect rules judge. */
  readonly effects: EffectRecorder
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
  /** The latest event the destination was sent about each object, by object id (a reminder is no change: left out). */
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
  /**
   * Makes the client of one run; its `handler` answers the deliveries. Called again on each
   * redeploy (a `redeploy` or `roll_secret` step) with the same run: the new client replaces the
   * old, `run.env.store` is kept.
   */
  start(run: FlowRun): { handler(request: Request): Response | Promise<Response> }
  /**
   * Records what the checkers read, after each step has settled and at the end (`final`); awaited,
   * so an app's state can be read through its own database or an HTTP endpoint.
   */
  checkpoint(run: FlowRun, final: boolean): void | Promise<void>
  /** The checkers of the property over the run's trace. */
  check(entries: readonly TraceEntry[]): Violation[]
  /** Event types the destination sends the client (default `FLOW_EVENT_TYPES`); a program with `everyEvent` sends every type. */
  readonly eventTypes?: readonly string[]
  /** Actions of the property's own step kinds (`x:...`), made with the subject (so they reach its client). */
  readonly actions?: Readonly<Record<string, FlowAction>>
  /**
   * Whether the app also has a Connect endpoint (same URL, a secret of its own: `env.connectSecrets()`),
   * the only one its connected accounts' events are sent to (default false: the platform's own events alone).
   */
  readonly connect?: boolean
  /**
   * The status the app holds for an object (its copy of a subscription, say), read just before and
   * just after a forged delivery about it: an app whose state takes the forged claim acted on a
   * delivery it should have refused, even when it records no effect.
   */
  statusOf?(run: FlowRun, objectId: string): unknown
  /**
   * What an object's JSON (a delivery's claim, the provider's copy) comes to in the terms of
   * `statusOf` (default: its `status`); the mirror compares every field it mirrors, so an old
   * replay that only flips `cancel_at_period_end` is seen taken too.
   */
  stateOf?(object: Readonly<Record<string, unknown>>): unknown
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
  /** Gets the run's simulator once its client is deployed and mounted, before the first step. */
  readonly onSimulator?: (sim: Simulator) => void
  /** Further `createSimulator` options of the run; `clock: 'global'` for an app that reads `Date.now()`. */
  readonly simOptions?: FlowSimOptions | undefined
  /**
   * Web Crypto's HMAC `sign`/`verify` and SHA `digest` answer at once during the run (default
   * true), byte for byte as the real ones, so an app in process that verifies with `crypto.subtle`
   * resumes in the same order every run; `false` leaves the real ones (on Node's thread pool).
   */
  readonly deterministicCrypto?: boolean | undefined
}

/** The outcome of one billing flow run. */
export interface FlowReport {
  readonly violations: readonly Violation[]
  readonly traceHash: string
  /** Step labels as executed (a no-op says why). */
  readonly steps: readonly string[]
  /** The (event type, object state, fault, deploy) combinations the run produced (`FlowCoverage`). */
  readonly coverage: readonly string[]
  /** The step (1-based; steps + 1 for the final settle) during which each combination was first produced. */
  readonly coverageSteps: Readonly<Record<string, number>>
  /** The type of the run's first delivery (what an attacker's replay re-sends), when it had one. */
  readonly firstDelivery?: string
}

/** What the receiver notes of each request besides acknowledgements: forgeries, coverage. */
interface Watch {
  /** The run's endpoints: the platform's, and the Connect one when there is one. */
  readonly destinations: readonly string[]
  readonly forged: ReadonlySet<string>
  readonly coverage: FlowCoverage
  /** The subject's `statusOf`, read around deliveries that are not genuine (forgeries, old replays). */
  readonly statusOf?: ((objectId: string) => unknown) | undefined
  /** The subject's `stateOf`: a claimed or provider's object in the terms of `statusOf`. */
  readonly stateOf: (object: Record<string, unknown>) => unknown
}

/** The subject's reader of the app's status of an object, bound to the run. */
function statusReader(subject: FlowSubject, run: FlowRun): Watch['statusOf'] {
  const read = subject.statusOf?.bind(subject)
  return read === undefined ? undefined : (id) => read(run, id)
}

/** What a delivery that is not genuine claims, when the subject can say what the app holds. */
function unverifiedClaim(
  run: FlowRun,
  watch: Watch,
  request: Request,
  raw: string,
  event: DeliveredEvent | undefined,
): Claim | undefined {
  const object = event?.data?.object
  if (watch.statusOf === undefined || typeof event?.id !== 'string' || typeof object?.id !== 'string') return undefined
  if (genuineDelivery(run.sim, watch.destinations, request, raw)) return undefined
  return { event: event.id, object: object.id, status: watch.stateOf(object) }
}

function ackingHandler(run: FlowRun, client: FlowDeployment, causal: CausalRecorder, watch: Watch) {
  const trace = run.sim.service.kernel.trace
  return async (request: Request): Promise<Response> => {
    const raw = await TextRequest.textOf(request)
    const event = deliveredEvent(raw)
    const forged = typeof event?.id === 'string' && watch.forged.has(event.id)
    const id = event === undefined ? undefined : watch.coverage.observe(event, request.headers, forged)
    const handle = () =>
      causal.handling(
        raw,
        async () => {
          try {
            return await client.handle(request)
          } catch {
            return new Response('thrown', { status: 500 })
          }
        },
        event,
      )
    const claim = unverifiedClaim(run, watch, request, raw, event)
    const handled =
      claim === undefined || watch.statusOf === undefined
        ? await handle()
        : await watchAdoption(run.sim, watch.statusOf, claim, handle, watch.stateOf)
    const { failedReads } = handled
    const res = handled.result instanceof Response ? handled.result : new Response('not a Response', { status: 500 })
    const ok = res.status >= 200 && res.status < 300
    watch.coverage.answered(id, ok)
    if (forged || typeof event?.id !== 'string') return res
    if (ok) {
      ;(run.acked as Set<string>).add(event.id)
      const object = event.data?.object
      trace.append('harness.flow.ack', {
        event: event.id,
        type: event.type,
        object: object?.id,
        state: objectState(object) ?? null,
      })
    } else if (genuineDelivery(run.sim, watch.destinations, request, raw))
      trace.append('harness.rule.refused', { event: event.id, type: String(event.type), status: res.status, failedReads })
    return res
  }
}

// Runs by the `fetch` of their simulator, which every env made for the run carries (a redeploy's
// env and a property's wider env are copies): how an adapter of an app outside the process finds
// the run its deliveries belong to, without widening the env.
const runsByFetch = new WeakMap<FlowClientEnv['fetch'], FlowRun>()

/**
 * The run an env was made for (undefined for an env not made by `runFlow`, or anything that is no env).
 *
 * @example
 * const run = flowRunOf(env) // its simulator, its setup, what the client acknowledged
 */
export function flowRunOf(env: Pick<FlowClientEnv, 'fetch'>): FlowRun | undefined {
  return runsByFetch.get((env as Partial<typeof env> | null | undefined)?.fetch as FlowClientEnv['fetch'])
}

/**
 * A forged delivery the app acted on is the cause of whatever else broke (its copy wrong, access
 * refused): that verdict comes first.
 */
function rootCauseFirst(violations: readonly Violation[]): Violation[] {
  const forgery = violations.filter((v) => v.checker === 'flow.forgery_ignored')
  return forgery.length === 0 ? [...violations] : [...forgery, ...violations.filter((v) => v.checker !== 'flow.forgery_ignored')]
}

/** The types the run's endpoint is subscribed to: every one for an `everyEvent` program, else the subject's. */
function eventTypesOf(program: FlowProgram, subject: FlowSubject): readonly string[] {
  return program.everyEvent === true ? ['*'] : (subject.eventTypes ?? FLOW_EVENT_TYPES)
}

/** What one step of a run needs besides its adversity tools and action context. */
interface StepParts {
  readonly runner: ReturnType<typeof createStepRunner>
  readonly subject: FlowSubject
  readonly options: FlowRunOptions
  readonly run: FlowRun
}

/** One step: its action (or adversity), then `FLOW_STEP_SETTLE_MS` (or the step's `settleMs`) of deliveries and the subject's checkpoint; the step's label with its note. */
async function flowStep(
  step: FlowProgram['steps'][number],
  { runner, subject, options, run }: StepParts,
  tools: Parameters<typeof runAdversityStep>[0],
  ctx: FlowActionContext,
): Promise<string | undefined> {
  let note: string | undefined
  if (step.kind === 'advance') await runner.advance(step.ms)
  else {
    note = await runAdversityStep(tools, step)
    if (note === undefined) {
      const action = subject.actions?.[step.kind] ?? options.actions?.[step.kind] ?? flowActions[step.kind]
      if (action === undefined) throw new TypeError(`runFlow: no action for step kind '${step.kind}'`)
      note = await action(ctx, step)
    }
  }
  await runner.advance(step.kind === 'advance' ? FLOW_STEP_SETTLE_MS : (step.settleMs ?? FLOW_STEP_SETTLE_MS))
  const checked = subject.checkpoint(run, false)
  if (checked !== undefined) await checked
  return note === undefined || note === '' ? undefined : `${flowStepLabel(step)} (${note})`
}

/** The run's report, once its final checkpoint is taken: the verdicts on its whole trace. */
function flowReport(
  sim: Simulator,
  subject: FlowSubject,
  coverage: FlowCoverage,
  labels: string[],
  options: FlowRunOptions,
): FlowReport {
  const entries = sim.trace.entries()
  options.onTrace?.(entries)
  return {
    violations: rootCauseFirst([...subject.check(entries), ...checkFlowAdversity(entries)]),
    traceHash: sim.trace.hash(),
    steps: labels,
    coverage: coverage.keys(),
    // Read by a campaign's steering only: made when read.
    get coverageSteps() {
      return coverage.steps()
    },
    ...(coverage.firstType === undefined ? {} : { firstDelivery: coverage.firstType }),
  }
}

/**
 * `runFlow` for a program known to be well formed (generated, shrunk or checked): what the checks,
 * campaigns and worker lanes run, without checking each program again.
 *
 * @example
 * const report = await runFlowProgram(program, mirrorSubject(referenceSubscriptionMirror, {}), {})
 */
export async function runFlowProgram(
  program: FlowProgram,
  subject: FlowSubject,
  options: FlowRunOptions = {},
): Promise<FlowReport> {
  const prepared = await preparedFlow(options, eventTypesOf(program, subject), subject.connect === true)
  const sim = prepared.sim.fork({ seed: program.seed, faults: { ...options.faults, schedule: [...program.faults] } })
  const runner = createStepRunner(sim, options.onStep === undefined ? {} : { onStep: options.onStep })
  const acked = new Set<string>()
  const subscriptions: string[] = []
  const d = prepared.setup.destination
  const connect = prepared.setup.connectDestination
  const deployment: FlowDeployment = new FlowDeployment(sim, d, () => subject.start(run), connect)
  const causal = new CausalRecorder(sim)
  const env: FlowClientEnv = {
    secrets: () => deployment.deployedSecrets(),
    connectSecrets: () => deployment.deployedConnectSecrets(),
    clock: sim.clock,
    prefix: sim.service.kernel.prefix,
    fetch: causal.wrapFetch(sim.fetch),
    baseUrl: 'https://api.service.test',
    secretKey: sim.platform.secretKey.test,
    store: createDurableStore(),
    effects: causal,
  }
  const { latest, sent } = watchSentEvents(sim, eventTypesOf(program, subject), connect !== undefined)
  const coverage = new FlowCoverage(sim, deployment, `${sim.service.kernel.prefix}-Signature`)
  const run: FlowRun = { sim, setup: prepared.setup, acked, env, subscriptions, latest }
  runsByFetch.set(env.fetch, run)
  const forged = new Set<string>()
  let uninstall = () => {}
  // The recorder's storage is turned off once no run is under way, whatever ends this one.
  try {
    // Names the Connect endpoint for the verdicts, which read the trace alone.
    if (connect !== undefined) sim.service.kernel.trace.append('harness.flow.connect', { destination: connect })
    // Before the app is deployed: a key it imports at start is made inside the run.
    holdRunCrypto(run, options)
    deployment.deploy('start')
    const stateOf = subject.stateOf?.bind(subject) ?? statusOfObject
    const destinations = connect === undefined ? [d] : [d, connect]
    const watch = { destinations, forged, coverage, statusOf: statusReader(subject, run), stateOf }
    const onWall = onWallClock(options, sim, ackingHandler(run, deployment, causal, watch))
    uninstall = onWall.uninstall
    const receive = onWall.receive
    const control = runner.mount({ name: FLOW_RECEIVER, url: FLOW_RECEIVER_URL, handler: receive })
    let n = 0
    const advance = (ms: number) => runner.advance(ms)
    const ctx: FlowActionContext = {
      sim,
      setup: prepared.setup,
      subscriptions,
      api: flowApi(sim, () => `flow-${++n}`),
      advance,
      redeploy: () => deployment.deploy('deploy'),
    }
    const url = FLOW_RECEIVER_URL
    const tools = { sim, destination: d, connectDestination: connect, url, deployment, sent, forged, receive, advance }
    const steps = { runner, subject, options, run }
    const labels: string[] = []
    options.onSimulator?.(sim)
    for (const step of program.steps) {
      coverage.step = labels.length + 1
      const record = await runner.run(step.kind, flowStepLabel(step), () => flowStep(step, steps, tools, ctx))
      labels.push(record.label)
    }
    control.set(false)
    coverage.step = labels.length + 1
    await runner.advance(FLOW_FINAL_SETTLE_MS)
    const checked = subject.checkpoint(run, true)
    // A subject that reads at once is not awaited: no microtask turn, the trace as it was.
    if (checked !== undefined) await checked
    return flowReport(sim, subject, coverage, labels, options)
  } finally {
    uninstall()
    releaseRunCrypto(run)
    causal.close()
  }
}
