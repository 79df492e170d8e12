// The public shape of a scenario, written by hand so that the declarations a user installs need no
// zod; schema.ts pins each of these to what its schema parses, so they cannot drift.
import type { LimitRowSpec } from '#domain/index.js'
import type { Faults, FaultsInput } from '#faults/index.js'

/**
 * A count expectation: exactly `n`, or a range `{ min, max }` (either end open).
 *
 * @example
 * const atLeastOne: CountExpectation = { min: 1 }
 */
export type CountExpectation = number | { min?: number | undefined; max?: number | undefined }

/**
 * What a request step expects: a status (or any of several), an error code, a 429 reason, and for
 * parallel or repeated requests a tally of outcome labels (`200`, `429 lock_timeout`, `429 global-rate`).
 *
 * @example
 * const expectation: StepExpectation = { status: [200, 429], outcomes: { '200': { min: 1 } } }
 */
export interface StepExpectation {
  status?: number | number[] | undefined
  code?: string | undefined
  reason?: string | undefined
  outcomes?: Record<string, CountExpectation> | undefined
  /** Values in the JSON answer by dotted path (null: absent), e.g. `{ 'metadata.tier': null }`. */
  body?: Record<string, unknown> | undefined
  /** Whether the answers carry a Request-Id header. */
  request_id?: boolean | undefined
  /** Response header values (null: absent), e.g. `{ 'Service-Should-Retry': 'true' }`. */
  headers?: Record<string, string | null> | undefined
}

/**
 * A request of a step, as parsed (`method` defaults to `GET`).
 *
 * @example
 * const request: RequestSpec = { method: 'POST', path: '/v1/customers', body: { email: 'a@example.com' } }
 */
export interface RequestSpec {
  method: 'GET' | 'POST' | 'DELETE'
  /** Starts with `/`, e.g. `/v1/account`. */
  path: string
  query?: Record<string, unknown> | undefined
  body?: Record<string, unknown> | unknown[] | undefined
  headers?: Record<string, string> | undefined
  /** Account whose secret key authenticates (default `platform`). */
  as?: string | undefined
  /** Account name (or id) sent as `<Prefix>-Account`. */
  account?: string | undefined
  /** Value of `<Prefix>-Context` (templates allowed). */
  context?: string | undefined
  /** Bearer token instead of a secret key, e.g. `{{session.authentication_token}}`. */
  token?: string | undefined
  version?: string | undefined
  idempotency_key?: string | undefined
  mode?: 'test' | 'live' | undefined
  /** Save the response body under this name for `{{name.field}}` templates. */
  save?: string | undefined
  /** Send the request this many times in a row. */
  times?: number | undefined
}

/**
 * One workload step: exactly one action, plus an optional label and expectation.
 *
 * @example
 * const step: StepSpec = { label: 'a month passes', advance: 2_592_000_000 }
 */
export interface StepSpec {
  label?: string | undefined
  expect?: StepExpectation | undefined
  request?: RequestSpec | undefined
  /** Requests sent at the same virtual instant. */
  parallel?: RequestSpec[] | undefined
  /** Move the virtual clock (ms), running everything due on the way. */
  advance?: number | undefined
  settle?: boolean | undefined
  /** Run an action of the client module (the reference client by default). */
  client?: { action: string; args?: Record<string, unknown> | undefined; save?: string | undefined } | undefined
  receiver?: { name: string; state: 'up' | 'down'; status?: number | undefined } | undefined
  /** Call a `sim.admin` method, e.g. `setApiVersion`. */
  admin?: { call: string; args?: unknown[] | undefined; save?: string | undefined } | undefined
  repeat?: { times: number; steps: StepSpec[] } | undefined
}

/**
 * A scenario's `limits`: rows merged by id into the spec's table (`endpoint-rate`,
 * `global-concurrency.live`, ...), read allocation, lock wait; or `false` for none.
 *
 * @example
 * const limits: ScenarioLimits = { rows: [{ id: 'endpoint-rate', max: 5 }], locks: false }
 */
export type ScenarioLimits =
  | false
  | {
      rows?: LimitRowSpec[] | undefined
      defaults?: boolean | undefined
      reads?: false | { minimum?: number | undefined } | undefined
      locks?: false | { waitMs?: number | undefined } | undefined
    }

/**
 * An account the scenario creates before its workload.
 *
 * @example
 * const account: AccountSetup = { name: 'shop', country: 'FR', type: 'express' }
 */
export interface AccountSetup {
  name: string
  email?: string | undefined
  /** Two-letter country code. */
  country?: string | undefined
  type?: 'standard' | 'express' | 'custom' | undefined
  api_version?: string | undefined
  metadata?: Record<string, string> | undefined
}

/**
 * An organisation of accounts (by name).
 *
 * @example
 * const organisation: OrganisationSetup = { name: 'group', accounts: ['shop', 'outlet'] }
 */
export interface OrganisationSetup {
  name: string
  accounts: string[]
}

/**
 * A billing meter the scenario creates.
 *
 * @example
 * const meter: MeterSetup = { name: 'api', event_name: 'api_call' }
 */
export interface MeterSetup {
  name: string
  event_name: string
  display_name?: string | undefined
  account?: string | undefined
  customer_key?: string | undefined
  value_key?: string | undefined
}

/**
 * An event destination the scenario creates, as parsed (`events_from` defaults to `['@self']`,
 * `event_payload` to `snapshot`).
 *
 * @example
 * const destination: DestinationSetup = {
 *   name: 'hooks', url: 'https://shop.example/hooks', events_from: ['@self'], event_payload: 'snapshot', enabled_events: ['*'],
 * }
 */
export interface DestinationSetup {
  name: string
  /** Owner account name (default `platform`). */
  account?: string | undefined
  url: string
  events_from: ('@self' | '@accounts' | '@organization_members' | '@organization_members/@accounts')[]
  event_payload: 'snapshot' | 'thin'
  enabled_events: string[]
  api_version?: string | undefined
  mode?: 'test' | 'live' | undefined
}

/**
 * A webhook receiver of the scenario, as parsed (`client` defaults to `reference`, `state` to `up`).
 *
 * @example
 * const receiver: ReceiverSetup = { name: 'shop', url: 'https://shop.example/hooks', client: 'reference', state: 'up' }
 */
export interface ReceiverSetup {
  name: string
  url: string
  /** `reference` or a module path exporting `receiver(ctx)`. */
  client: string
  /** Destination whose signing secret the receiver verifies with. */
  destination?: string | undefined
  state: 'up' | 'down'
  /** Status answered while down (default: no connection). */
  status?: number | undefined
}

/**
 * What the scenario's run must show of one receiver.
 *
 * @example
 * const shop: ReceiverExpectations = { processed: 3, bad_signatures: 0 }
 */
export interface ReceiverExpectations {
  attempts?: CountExpectation | undefined
  accepted?: CountExpectation | undefined
  refused?: CountExpectation | undefined
  unique?: CountExpectation | undefined
  duplicates?: CountExpectation | undefined
  bad_signatures?: CountExpectation | undefined
  /** Deliveries per status the receiver answered (0: connection refused). */
  statuses?: Record<string, CountExpectation> | undefined
  /** Side effects the receiver reported (`ctx.processed`): one per event for a deduplicating receiver. */
  processed?: CountExpectation | undefined
  /** Events first seen after a later-created event was already seen. */
  out_of_order?: CountExpectation | undefined
  /** Old signed deliveries re-POSTed by `replay_delivery`. */
  replays?: CountExpectation | undefined
  /** Replayed deliveries the receiver answered 2xx. */
  replays_accepted?: CountExpectation | undefined
}

/**
 * What the scenario's run must show at its end, as parsed (`checkers` defaults to none).
 *
 * @example
 * const expectations: ScenarioExpectations = { checkers: [], events: [{ type: 'invoice.paid', count: 1 }] }
 */
export interface ScenarioExpectations {
  checkers: string[]
  /** Tally of every request outcome label. */
  outcomes?: Record<string, CountExpectation> | undefined
  events?: { type: string; account?: string | undefined; api_version?: string | undefined; count: CountExpectation }[] | undefined
  trace?: { kind: string; count: CountExpectation }[] | undefined
  receivers?: Record<string, ReceiverExpectations> | undefined
  /** Delivery status counts per destination (needs `sim.admin.deliveries`). */
  deliveries?:
    | Record<
        string,
        {
          delivered?: CountExpectation | undefined
          failed?: CountExpectation | undefined
          pending?: CountExpectation | undefined
        }
      >
    | undefined
}

/**
 * The subject of a property-harness counterexample: `reference`, a bundled buggy variant's name,
 * or a module path exporting `reporter`/`webhook`; or, with `flow`, the property and client of a
 * billing flow the scenario drives.
 *
 * @example
 * const harness: ScenarioHarness = { webhook: 'no-dedup' }
 */
export interface ScenarioHarness {
  reporter?: string | undefined
  webhook?: string | undefined
  /** A billing flow with a client under test: the workload's client actions are the property's flow steps. */
  flow?: FlowScenarioProperty | undefined
  /** The flow's client: `reference` (default), a bundled buggy variant's name, or a module path exporting `client`. */
  client?: string | undefined
  /** The flow's endpoint is subscribed to every event type (`*`), as a generated program may be. */
  every_event?: boolean | undefined
  /** Web Crypto answers at once during the flow (default true); `false` when the check ran with `deterministicCrypto: false`. */
  deterministic_crypto?: boolean | undefined
  /** The property's own options the counterexample was found with (an access policy, payments, `provisional`). */
  options?: Record<string, unknown> | undefined
}

/**
 * The properties a scenario can drive a billing flow for, by the client code each attacks.
 *
 * @example
 * const property: FlowScenarioProperty = 'fulfilment'
 */
export type FlowScenarioProperty = (typeof FLOW_SCENARIO_PROPERTIES)[number]

/**
 * Every `harness.flow` a scenario may name.
 *
 * @example
 * FLOW_SCENARIO_PROPERTIES.includes('dunning') // true
 */
export const FLOW_SCENARIO_PROPERTIES = ['fulfilment', 'subscription_mirror', 'dunning', 'thin_events'] as const

/**
 * A parsed scenario: one reproducible run of the simulator, defaults filled and durations in ms.
 *
 * @example
 * const scenario: Scenario = parseScenarioText('name: hello\nworkload: [{ request: { path: /v1/account } }]')
 */
export interface Scenario {
  $schema?: string | undefined
  name: string
  description?: string | undefined
  seed: number | string
  mode: 'test' | 'live'
  /** ISO 8601 start of the virtual clock. */
  start?: string | undefined
  header_prefix?: string | undefined
  api_version?: string | undefined
  /** Virtual time (ms) each request stays in flight. */
  service_time?: number | undefined
  limits?: ScenarioLimits | undefined
  setup: {
    accounts: AccountSetup[]
    organisations: OrganisationSetup[]
    meters: MeterSetup[]
    destinations: DestinationSetup[]
    receivers: ReceiverSetup[]
  }
  harness?: ScenarioHarness | undefined
  workload: StepSpec[]
  faults: Faults
  expectations: ScenarioExpectations
}

/**
 * A scenario as written in a file: defaults may be left out, durations may be text such as `'15m'`,
 * workload steps are checked when parsed.
 *
 * @example
 * const input: ScenarioInput = { name: 'hello', workload: [{ request: { path: '/v1/account' } }] }
 */
export interface ScenarioInput {
  $schema?: string | undefined
  name: string
  description?: string | undefined
  seed?: number | string | undefined
  mode?: 'test' | 'live' | undefined
  /** ISO 8601 start of the virtual clock. */
  start?: string | undefined
  header_prefix?: string | undefined
  api_version?: string | undefined
  /** Virtual time each request stays in flight: ms, or text such as `'50ms'`. */
  service_time?: number | string | undefined
  limits?: ScenarioLimits | undefined
  setup?:
    | {
        accounts?: AccountSetup[] | undefined
        organisations?: OrganisationSetup[] | undefined
        meters?: MeterSetup[] | undefined
        destinations?:
          | (Omit<DestinationSetup, 'events_from' | 'event_payload'> & {
              events_from?: DestinationSetup['events_from'] | undefined
              event_payload?: DestinationSetup['event_payload'] | undefined
            })[]
          | undefined
        receivers?:
          | (Omit<ReceiverSetup, 'client' | 'state'> & {
              client?: string | undefined
              state?: ReceiverSetup['state'] | undefined
            })[]
          | undefined
      }
    | undefined
  harness?: ScenarioHarness | undefined
  workload?: unknown[] | undefined
  faults?: FaultsInput | undefined
  expectations?: (Omit<ScenarioExpectations, 'checkers'> & { checkers?: string[] | undefined }) | undefined
}
