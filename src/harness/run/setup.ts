import { verifySignature } from '#domain/index.js'
import { headerNames } from '#kernel/index.js'
import { continueAs, createSimulator, keepForForks, type Simulator } from '#simulator/index.js'
import { HarnessInputError } from '../validate-input.js'
import { type SimulatorChoice, simulatorOptionsOf } from './simulator-choice.js'

/** Meter event name the harness's usage goes to. */
export const HARNESS_EVENT_NAME = 'harness_usage'
/** URL of the receiver under test (mounted with `sim.receivers.mount`). */
export const HARNESS_RECEIVER_URL = 'https://hooks.harness.test/webhooks'
/** URL of the harness's own receiver of meter error reports (the usage app's error endpoint). */
export const METER_ERRORS_URL = 'https://hooks.harness.test/meter-errors'
/** Customers a usage setup creates: the default pool of repeating customers (`usageStep`'s `customers`). */
export const SETUP_CUSTOMERS = 3
/** Seed of the setup every run starts from; each run then goes on with its program's seed (`continueAs`). */
export const SETUP_SEED = 'harness-setup'

/** Event types the subject's destination receives. */
export const SUBJECT_EVENT_TYPES = ['payment_intent.created', 'payment_intent.processing', 'payment_intent.succeeded'] as const
const METER_ERROR_TYPES = ['v1.billing.meter.error_report_triggered', 'v1.billing.meter.no_meter_found']

/** Which subjects a run wires: the setup prepares what each needs. */
export interface SetupNeeds {
  readonly reporter: boolean
  readonly webhook: boolean
}

/** What a setup made, as ids (the same in every fork of the prepared simulator). */
export interface Setup {
  readonly meter?: { readonly id: string; readonly customerKey: string; readonly valueKey: string }
  /** The repeating customers' ids: `cus_c<k>` of a program bills customers[k]. */
  readonly customers: readonly string[]
  /** The destination delivering to the subject's receiver. */
  readonly destination?: string
}

/** POSTs through the public surface with the platform's test key; anything but 200 fails the setup. */
interface SetupApi {
  form(path: string, fields: Record<string, string>): Promise<Record<string, unknown>>
  json(path: string, body: unknown): Promise<Record<string, unknown>>
}

function setupApi(sim: Simulator): SetupApi {
  const key = sim.platform.secretKey.test
  const call = async (path: string, body: string, type: string): Promise<Record<string, unknown>> => {
    const res = await sim.fetch(`https://api.service.test${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': type },
      body,
    })
    const json = (await res.json()) as Record<string, unknown>
    if (res.status !== 200)
      throw new HarnessInputError(`harness setup: POST ${path} answered ${res.status}: ${JSON.stringify(json)}`)
    return json
  }
  return {
    form: (path, fields) => call(path, new URLSearchParams(fields).toString(), 'application/x-www-form-urlencoded'),
    json: (path, body) => call(path, JSON.stringify(body), 'application/json'),
  }
}

async function createMeter(api: SetupApi): Promise<NonNullable<Setup['meter']>> {
  const m = await api.form('/v1/billing/meters', {
    display_name: 'Harness usage',
    event_name: HARNESS_EVENT_NAME,
    'default_aggregation[formula]': 'sum',
    'customer_mapping[type]': 'by_id',
    'customer_mapping[event_payload_key]': 'stripe_customer_id',
    'value_settings[event_payload_key]': 'value',
  })
  const mapping = m.customer_mapping as { event_payload_key: string }
  const value = m.value_settings as { event_payload_key: string }
  return { id: String(m.id), customerKey: mapping.event_payload_key, valueKey: value.event_payload_key }
}

/** Usage is billed: a metered price on the meter, and each customer subscribed to it with a card. */
async function createCustomers(api: SetupApi, meter: string): Promise<string[]> {
  const product = await api.form('/v1/products', { name: 'Harness usage' })
  const price = await api.form('/v1/prices', {
    product: String(product.id),
    currency: 'usd',
    unit_amount: '3',
    'recurring[interval]': 'month',
    'recurring[usage_type]': 'metered',
    'recurring[meter]': meter,
  })
  const customers: string[] = []
  for (let k = 0; k < SETUP_CUSTOMERS; k++) {
    const c = await api.form('/v1/customers', { name: `Harness customer ${k}`, email: `customer${k}@harness.test` })
    const id = String(c.id)
    const pm = await api.form('/v1/payment_methods/pm_card_visa/attach', { customer: id })
    await api.form(`/v1/customers/${id}`, { 'invoice_settings[default_payment_method]': String(pm.id) })
    await api.form('/v1/subscriptions', { customer: id, 'items[0][price]': String(price.id) })
    customers.push(id)
  }
  return customers
}

/** A destination for meter error reports, and a receiver that checks their signatures. */
async function receiveMeterErrors(sim: Simulator, api: SetupApi): Promise<void> {
  const errors = await api.json('/v2/core/event_destinations', {
    name: 'meter errors',
    type: 'webhook_endpoint',
    event_payload: 'thin',
    enabled_events: METER_ERROR_TYPES,
    webhook_endpoint: { url: METER_ERRORS_URL },
    include: ['webhook_endpoint.signing_secret'],
  })
  const secret = String((errors.webhook_endpoint as { signing_secret: string }).signing_secret)
  const signature = headerNames(sim.service.kernel.prefix).signature
  // Stateless (a fork shares it): acknowledges genuine reports, refuses anything unsigned.
  sim.receivers.mount(METER_ERRORS_URL, async (req) => {
    try {
      verifySignature(await req.text(), req.headers.get(signature), secret, { tolerance: 0 })
      return new Response('{}', { status: 200 })
    } catch {
      return new Response('{"error":"bad signature"}', { status: 400 })
    }
  })
}

async function createSubjectDestination(api: SetupApi): Promise<string> {
  const d = await api.json('/v2/core/event_destinations', {
    name: 'harness receiver',
    type: 'webhook_endpoint',
    event_payload: 'snapshot',
    enabled_events: [...SUBJECT_EVENT_TYPES],
    webhook_endpoint: { url: HARNESS_RECEIVER_URL },
  })
  return String(d.id)
}

/**
 * The setup of the standard scenarios, through the public surface (`sim.fetch` with the platform's
 * secret key), as a usage-billing app does once before traffic: for a usage reporter, its meter,
 * a metered price on it, its customers (each with a card and a subscription to that price) and an
 * event destination for meter error reports with a receiver that checks their signatures; for a
 * webhook receiver, the destination that delivers to it. A run either
 * does this on a fresh simulator or forks a simulator that did it once; both then continue with
 * the run's seed and faults (`continueAs`), so they reach the same trace hash.
 *
 * @example
 * const sim = createSimulator({ seed: SETUP_SEED })
 * const setup = await setUp(sim, { reporter: true, webhook: false })
 */
export async function setUp(sim: Simulator, needs: SetupNeeds): Promise<Setup> {
  const api = setupApi(sim)
  let meter: Setup['meter']
  let customers: string[] = []
  if (needs.reporter) {
    meter = await createMeter(api)
    customers = await createCustomers(api, meter.id)
    await receiveMeterErrors(sim, api)
  }
  const destination = needs.webhook ? await createSubjectDestination(api) : undefined
  await sim.settle()
  return {
    ...(meter === undefined ? {} : { meter }),
    customers,
    ...(destination === undefined ? {} : { destination }),
  }
}

/** A simulator after the setup, and what the setup made: every run forks it (`sim.fork(next)`). */
export interface PreparedRun {
  readonly sim: Simulator
  readonly setup: Setup
}

/** What decides a setup: the subjects present and the user's base simulator. */
export interface SetupSource extends SimulatorChoice {
  readonly reporter?: unknown
  readonly webhook?: unknown
}

/**
 * The setup's needs from the options of a run.
 *
 * @example
 * needsOf({ reporter }) // { reporter: true, webhook: false }
 */
export function needsOf(options: SetupSource): SetupNeeds {
  return { reporter: options.reporter !== undefined, webhook: options.webhook !== undefined }
}

/**
 * The simulator a setup is made on: a fresh one on the setup seed (with the header prefix, API
 * version and options the user chose), or a fork of the user's base going on with the setup seed
 * and no faults (its own rates would refuse setup requests).
 *
 * @example
 * const sim = setupSimulator({ reporter })
 */
export function setupSimulator(options: SetupSource): Simulator {
  if (options.base === undefined) return createSimulator({ ...simulatorOptionsOf(options), seed: SETUP_SEED })
  const sim = options.base.fork()
  continueAs(sim, { seed: SETUP_SEED })
  return sim
}

/**
 * Builds and sets up the simulator runs fork (see `setUp`).
 *
 * @example
 * const prepared = await prepareRun({ reporter })
 * const sim = prepared.sim.fork({ seed: 7 })
 */
export async function prepareRun(options: SetupSource): Promise<PreparedRun> {
  const sim = setupSimulator(options)
  const setup = await setUp(sim, needsOf(options))
  // From now on it is only forked: its capture is made once for every run.
  keepForForks(sim)
  return { sim, setup }
}
