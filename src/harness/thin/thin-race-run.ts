import type { FaultEntry } from '#faults/index.js'
import type { TraceEntry } from '#kernel/index.js'
import { createSimulator, type Simulator } from '#simulator/index.js'
import { type Violation, violation } from '../checkers/violation.js'
import { createDurableStore } from '../durable-store.js'
import { refuseArgument } from '../refuse-argument.js'
import { createStepRunner, type StepRunner, type StepRunnerOptions } from '../run/step-runner.js'
import type { WebhookReceiver, WebhookReceiverEnv } from '../subjects.js'
import { HarnessInputError } from '../validate-input.js'
import type { ThinRaceProgram, ThinRaceStep } from './thin-race-program.js'

/** Where the thin-event receiver under test is mounted. */
export const THIN_RECEIVER_URL = 'https://thin-receiver.harness.test/events'
const BASE_URL = 'https://api.service.test'
const THIN_TYPE = 'v1.billing.meter.error_report_triggered'
const PAYMENT_EVENT = 'v2.payments.off_session_payment.'
/** The off-session payment events a receiver of the race is sent. */
const PAYMENT_TYPES = ['created', 'attempt_started', 'attempt_failed', 'succeeded', 'canceled'].map((t) => PAYMENT_EVENT + t)
/** The saved cards of `pay` steps: one that pays, one short of funds (retried by smart retries). */
const PAYMENT_CARDS = ['pm_card_visa', 'pm_card_chargeDeclinedInsufficientFunds'] as const

/**
 * What a thin-event receiver is given: the webhook receiver's environment, and the API to fetch
 * the object a thin event names (`baseUrl` + `related_object.url`, with `secretKey`).
 *
 * @example
 * const meter = await env.fetch(`${env.baseUrl}${event.related_object.url}`, { headers: { Authorization: `Bearer ${env.secretKey}` } })
 */
export interface ThinEventReceiverEnv extends WebhookReceiverEnv {
  readonly fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>
  readonly baseUrl: string
  readonly secretKey: string
}

/**
 * Builds a thin-event receiver: for each event it decides from the object it names and records the
 * decision as `effects.record(event.id, '<object id>:<status>')`, the status it acted on.
 *
 * @example
 * const factory: ThinEventReceiverFactory = (env) => ({ handler: async () => new Response('ok'), state: () => ({}) })
 */
export type ThinEventReceiverFactory = (env: ThinEventReceiverEnv) => WebhookReceiver

/** How to run a thin-event race (a replay's listeners). */
export interface ThinRaceOptions {
  /** Called after every step with its record and fault decisions. */
  readonly onStep?: StepRunnerOptions['onStep']
  /** Gets the run's whole trace at the end. */
  readonly onTrace?: (entries: readonly TraceEntry[]) => void
}

/**
 * The outcome of one thin-event race run.
 *
 * @example
 * const { violations } = await runThinRace(program, referenceThinEventReceiver)
 */
export interface ThinRaceReport {
  readonly violations: readonly Violation[]
  readonly traceHash: string
}

async function api(sim: Simulator, path: string, body: string, type: string): Promise<Record<string, unknown>> {
  const res = await sim.fetch(`${BASE_URL}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${sim.platform.secretKey.test}`, 'Content-Type': type },
    body,
  })
  const json = (await res.json()) as Record<string, unknown>
  if (res.status !== 200)
    throw new HarnessInputError(`harness setup: POST ${path} answered ${res.status}: ${JSON.stringify(json)}`)
  return json
}

/**
 * Each decision (`harness.effect`, `<object id>:<status>`) against that object's status at that
 * point of the run (`harness.thin.status`): a receiver acting on the fetched object decides by the
 * status the object has when it fetches, never by the one it had when the event happened.
 */
function checkDecisions(sim: Simulator): Violation[] {
  const statuses = new Map<string, { entry: TraceEntry; value: string }>()
  const out: Violation[] = []
  for (const e of sim.service.kernel.trace.entries()) {
    if (e.kind === 'harness.thin.status') statuses.set(e.data.object, { entry: e, value: e.data.status })
    if (e.kind !== 'harness.effect') continue
    const cut = e.data.effect.lastIndexOf(':')
    const status = statuses.get(e.data.effect.slice(0, cut))
    if (status === undefined) continue
    const acted = e.data.effect.slice(cut + 1)
    if (acted !== status.value)
      out.push(
        violation(
          'thin.fetched_state',
          `event ${e.data.event} was acted on as '${String(acted)}' while its object was '${status.value}' (a thin event names the object: fetch it, it may have changed since the event)`,
          [status.entry, e],
        ),
      )
  }
  return out
}

/** Posts a form to the API as the platform. */
function form(sim: Simulator, path: string, fields: Record<string, string>): Promise<Record<string, unknown>> {
  return api(sim, path, new URLSearchParams(fields).toString(), 'application/x-www-form-urlencoded')
}

/** A race in progress: the simulator, its step runner, and the objects the steps act on. */
interface ThinRace {
  readonly sim: Simulator
  readonly runner: StepRunner
  readonly meter: string
  readonly destination: string
  readonly customer: string
  /** Whether the meter is active now (errors are reported only for an active meter). */
  active: boolean
  /** The off-session payments made so far, oldest first. */
  readonly payments: string[]
}

/** The race's objects: a meter (traced active), the thin destination delivering to the receiver, a paying customer. */
async function setUpRace(sim: Simulator, runner: StepRunner): Promise<ThinRace> {
  const meter = String(
    (
      await form(sim, '/v1/billing/meters', {
        display_name: 'Thin race',
        event_name: 'thin_race',
        'default_aggregation[formula]': 'sum',
        'customer_mapping[type]': 'by_id',
        'customer_mapping[event_payload_key]': 'stripe_customer_id',
        'value_settings[event_payload_key]': 'value',
      })
    ).id,
  )
  const destination = String(
    (
      await api(
        sim,
        '/v2/core/event_destinations',
        JSON.stringify({
          name: 'thin receiver',
          type: 'webhook_endpoint',
          event_payload: 'thin',
          enabled_events: [THIN_TYPE, ...PAYMENT_TYPES],
          webhook_endpoint: { url: THIN_RECEIVER_URL },
        }),
        'application/json',
      )
    ).id,
  )
  sim.service.kernel.trace.append('harness.thin.status', { object: meter, status: 'active' })
  const customer = String((await form(sim, '/v1/customers', { email: 'payer@example.com' })).id)
  return { sim, runner, meter, destination, customer, active: true, payments: [] }
}

/** Every change of a payment emits its event: the payment's status then is the object's, traced. */
function tracePaymentStatuses(sim: Simulator): void {
  const scope = { account: sim.platform.id, mode: 'test' as const }
  sim.service.events.subscribe((e) => {
    if (!e.type.startsWith(PAYMENT_EVENT) || e.objectId === undefined) return
    const status = sim.service.offSessionPayments.get(scope, e.objectId)?.status
    if (status !== undefined) sim.service.kernel.trace.append('harness.thin.status', { object: e.objectId, status })
  })
}

/** Builds the receiver under test and mounts it on the step runner. */
function mountReceiver(race: ThinRace, factory: ThinEventReceiverFactory, api: string): void {
  const { sim } = race
  const trace = sim.service.kernel.trace
  const receiver = factory({
    secrets: () => sim.admin.signingSecrets(race.destination).reverse(),
    clock: sim.clock,
    prefix: sim.service.kernel.prefix,
    effects: { record: (event, effect) => void trace.append('harness.effect', { event, effect }), skip: () => undefined },
    store: createDurableStore(),
    fetch: sim.fetch,
    baseUrl: BASE_URL,
    secretKey: sim.platform.secretKey.test,
  })
  if (typeof receiver?.handler !== 'function')
    throw new HarnessInputError(`${api}: receiver factory must return { handler, state }`)
  race.runner.mount({ name: 'thin', url: THIN_RECEIVER_URL, handler: (req) => receiver.handler(req) })
}

/** `pay`: an off-session payment of the customer with the step's card, smart retries on. */
async function pay(race: ThinRace, card: number): Promise<void> {
  const body = JSON.stringify({
    amount: { value: 2000, currency: 'usd' },
    cadence: 'unscheduled',
    customer: race.customer,
    payment_method: PAYMENT_CARDS[card % PAYMENT_CARDS.length],
    retry_details: { retry_strategy: 'smart' },
  })
  race.payments.push(String((await api(race.sim, '/v2/payments/off_session_payments', body, 'application/json')).id))
  return race.runner.advance(0)
}

/** `cancel_payment`: cancels the latest payment; refused (400) once it has succeeded or was cancelled, and the race goes on. */
async function cancelLatest(race: ThinRace): Promise<void> {
  const last = race.payments.at(-1)
  if (last !== undefined)
    await race.sim.fetch(`${BASE_URL}/v2/payments/off_session_payments/${last}/cancel`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${race.sim.platform.secretKey.test}` },
    })
  return race.runner.advance(0)
}

/** Performs one step of the race. */
async function perform(race: ThinRace, step: ThinRaceStep): Promise<void> {
  const { sim, meter } = race
  switch (step.kind) {
    case 'error_report':
      // Errors are reported for an active meter: that is the state at the event's moment.
      if (race.active)
        sim.admin.trigger(THIN_TYPE, {
          relatedObject: { id: meter, type: 'billing.meter', url: `/v1/billing/meters/${meter}` },
        })
      return race.runner.advance(0)
    case 'deactivate':
    case 'reactivate': {
      const body = await form(sim, `/v1/billing/meters/${meter}/${step.kind}`, {})
      race.active = body.status === 'active'
      sim.service.kernel.trace.append('harness.thin.status', { object: meter, status: String(body.status) })
      return
    }
    case 'advance':
      return race.runner.advance(step.ms)
    case 'pay':
      return pay(race, step.card)
    case 'cancel_payment':
      return cancelLatest(race)
  }
}

/**
 * Runs one thin-event race program: a meter, a thin event destination delivering
 * `v1.billing.meter.error_report_triggered` to the receiver, the program's steps under its delivery
 * faults, then every delivery settled; checks `thin.fetched_state`.
 *
 * @example
 * const report = await runThinRace({ seed: 1, steps: [{ kind: 'error_report' }, { kind: 'deactivate' }], faults: [{ step: 1, fault: 'delay_delivery' }] }, referenceThinEventReceiver)
 */
export async function runThinRace(
  program: ThinRaceProgram,
  factory: ThinEventReceiverFactory,
  options: ThinRaceOptions = {},
): Promise<ThinRaceReport> {
  return runThinRaceAs('runThinRace', program, factory, options)
}

/**
 * `runThinRace` whose refusals name `api`: the check that runs it names itself, not the runner.
 *
 * @example
 * await runThinRaceAs('checkThinEventReceiver', program, referenceThinEventReceiver)
 */
export async function runThinRaceAs(
  api: string,
  program: ThinRaceProgram,
  factory: ThinEventReceiverFactory,
  options: ThinRaceOptions = {},
): Promise<ThinRaceReport> {
  refuseArgument(api, 'program', program, 'object')
  refuseArgument(api, "program 'seed'", program.seed, 'integer')
  refuseArgument(api, "program 'steps'", program.steps, 'array')
  refuseArgument(api, "program 'faults'", program.faults, 'array')
  refuseArgument(api, 'factory', factory, 'function')
  refuseArgument(api, 'options', options, 'options')
  const sim = createSimulator({ seed: program.seed, faults: { schedule: program.faults.map((f: FaultEntry) => ({ ...f })) } })
  const runner = createStepRunner(sim, options.onStep === undefined ? {} : { onStep: options.onStep })
  const race = await setUpRace(sim, runner)
  tracePaymentStatuses(sim)
  mountReceiver(race, factory, api)
  for (const step of program.steps) await runner.run('client', `thin ${step.kind}`, () => perform(race, step))
  await runner.advance(4 * 3_600_000)
  await sim.settle()
  options.onTrace?.(sim.service.kernel.trace.entries())
  return { violations: checkDecisions(sim), traceHash: sim.service.kernel.trace.hash() }
}
