import { continueAs, createSimulator, keepForForks, type Simulator } from '#simulator/index.js'
import { type SimulatorChoice, simulatorKeyOf, simulatorOptionsOf } from '../run/simulator-choice.js'
import { HarnessInputError } from '../validate-input.js'
import { FLOW_CUSTOMERS, FLOW_PLANS } from './flow-program.js'

/** URL the client under test of a billing flow is mounted at. */
export const FLOW_RECEIVER_URL = 'https://hooks.harness.test/billing'
/**
 * Event types a billing flow's client handles and is sent when its program does not subscribe it
 * to every type (`FlowProgram.everyEvent`): the subscription's life, its invoices' payment and
 * collection. A subject may name its own list (`FlowSubject.eventTypes`).
 */
export const FLOW_EVENT_TYPES: readonly string[] = [
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.trial_will_end',
  'customer.subscription.paused',
  'customer.subscription.resumed',
  'invoice.paid',
  'invoice.payment_succeeded',
  'invoice.payment_failed',
  'invoice.payment_action_required',
  'invoice.marked_uncollectible',
  'invoice.voided',
]

/**
 * Whether an event type is not itself the change of its object: a reminder of what is coming
 * (`customer.subscription.trial_will_end`), or a second event for a change the provider also sends
 * as `customer.subscription.updated` (`customer.subscription.paused`, `resumed`). An app that
 * ignores it still holds what the changes told it, and one whose change event is still on its way
 * has nothing to hold yet, so it never makes an object's deliveries settled.
 *
 * @example
 * isReminder('customer.subscription.trial_will_end') // true
 */
export function isReminder(type: string): boolean {
  return SIDE_EVENTS.has(type)
}

const SIDE_EVENTS: ReadonlySet<string> = new Set([
  'customer.subscription.trial_will_end',
  'customer.subscription.paused',
  'customer.subscription.resumed',
])

/** What the setup of a billing flow made, as ids (the same in every fork). */
export interface FlowSetup {
  /** Monthly prices, cheapest first (`FLOW_PLANS`). */
  readonly prices: readonly string[]
  /** Customers, each with a paying card as its default payment method. */
  readonly customers: readonly string[]
  /** The event destination delivering to the client. */
  readonly destination: string
  /**
   * The Connect webhook endpoint delivering the connected accounts' events to the client (at the
   * same URL, with a signing secret of its own), when the subject asked for them (`FlowSubject.connect`).
   */
  readonly connectDestination?: string
}

/** A simulator after the setup; every run forks it. */
export interface PreparedFlow {
  readonly sim: Simulator
  readonly setup: FlowSetup
}

/** POSTs with the platform's test key; anything but 200 fails the setup. */
function poster(sim: Simulator) {
  const key = sim.platform.secretKey.test
  return async (path: string, body: Record<string, string> | object, json = false): Promise<Record<string, unknown>> => {
    const res = await sim.fetch(`https://api.service.test${path}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${key}`,
        'Content-Type': json ? 'application/json' : 'application/x-www-form-urlencoded',
      },
      body: json ? JSON.stringify(body) : new URLSearchParams(body as Record<string, string>).toString(),
    })
    const out = (await res.json()) as Record<string, unknown>
    if (res.status !== 200)
      throw new HarnessInputError(`billing flow setup: POST ${path} answered ${res.status}: ${JSON.stringify(out)}`)
    return out
  }
}

/**
 * The setup every billing flow starts from, through the public surface: a product with a monthly
 * price per plan, customers each paying with `pm_card_visa`, and a snapshot event destination for
 * `eventTypes` (default the subscription and invoice events), delivering to `FLOW_RECEIVER_URL`;
 * with `connect`, also a Connect webhook endpoint (`connect: true`) for the same types at the same
 * URL: only it receives the connected accounts' events, as the provider routes them.
 *
 * @example
 * const { sim, setup } = await prepareFlow({})
 */
export async function prepareFlow(
  choice: SimulatorChoice,
  eventTypes: readonly string[] = FLOW_EVENT_TYPES,
  connect = false,
): Promise<PreparedFlow> {
  let sim: Simulator
  if (choice.base === undefined) {
    // Each run installs the global clock an app may read for itself (`runFlow`): the prepared
    // simulator keeps a local one, so that every run's forks start from it.
    const { clock: _global, ...options } = simulatorOptionsOf(choice) as ReturnType<typeof simulatorOptionsOf> & {
      clock?: unknown
    }
    sim = createSimulator({ start: '2026-01-01T00:00:00.000Z', ...options, seed: 'flow-setup' })
  } else {
    sim = choice.base.fork()
    continueAs(sim, { seed: 'flow-setup' })
  }
  const post = poster(sim)
  const product = await post('/v1/products', { name: 'Harness plans' })
  const prices: string[] = []
  for (const [i, plan] of FLOW_PLANS.entries()) {
    const price = await post('/v1/prices', {
      product: String(product.id),
      currency: 'usd',
      unit_amount: String(1000 * (i + 1) ** 2),
      nickname: plan,
      'recurring[interval]': 'month',
    })
    prices.push(String(price.id))
  }
  const customers: string[] = []
  for (let i = 0; i < FLOW_CUSTOMERS; i++) {
    const c = await post('/v1/customers', { email: `subscriber${i}@example.com` })
    const pm = await post('/v1/payment_methods/pm_card_visa/attach', { customer: String(c.id) })
    await post(`/v1/customers/${String(c.id)}`, { 'invoice_settings[default_payment_method]': String(pm.id) })
    customers.push(String(c.id))
  }
  const d = await post(
    '/v2/core/event_destinations',
    {
      name: 'billing client',
      type: 'webhook_endpoint',
      event_payload: 'snapshot',
      enabled_events: [...eventTypes],
      webhook_endpoint: { url: FLOW_RECEIVER_URL },
    },
    true,
  )
  const endpoint = connect
    ? await post('/v1/webhook_endpoints', {
        url: FLOW_RECEIVER_URL,
        connect: 'true',
        ...Object.fromEntries(eventTypes.map((t, i) => [`enabled_events[${i}]`, t])),
      })
    : undefined
  await sim.settle()
  // From now on it is only forked: its capture is made once for every run.
  keepForForks(sim)
  const setup = { prices, customers, destination: String(d.id) }
  return { sim, setup: endpoint === undefined ? setup : { ...setup, connectDestination: String(endpoint.id) } }
}

const shared = new Map<string, Promise<PreparedFlow>>()
const onBase = new WeakMap<Simulator, Map<string, Promise<PreparedFlow>>>()

/**
 * The prepared billing flow setup for these simulator options and event types (and a Connect
 * endpoint or not), made once per process (per base).
 *
 * @example
 * const prepared = await preparedFlow({ headerPrefix: 'Stripe' })
 */
export function preparedFlow(
  choice: SimulatorChoice,
  eventTypes: readonly string[] = FLOW_EVENT_TYPES,
  connect = false,
): Promise<PreparedFlow> {
  const types = `${eventTypes.join(',')}${connect ? '|connect' : ''}`
  if (choice.base !== undefined) {
    let byTypes = onBase.get(choice.base)
    if (byTypes === undefined) {
      byTypes = new Map()
      onBase.set(choice.base, byTypes)
    }
    let p = byTypes.get(types)
    if (p === undefined) {
      p = prepareFlow(choice, eventTypes, connect)
      byTypes.set(types, p)
    }
    return p
  }
  const key = `${simulatorKeyOf(choice)}|${types}`
  let p = shared.get(key)
  if (p === undefined) {
    p = prepareFlow(choice, eventTypes, connect)
    shared.set(key, p)
    p.catch(() => shared.delete(key))
  }
  return p
}
