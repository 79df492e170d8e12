import type { RequestTimeline } from '#kernel/request-timeline.js'
import { type Billing, createBilling } from './billing/billing.js'
import { type CheckoutTimers, createCheckoutTimers } from './checkout/checkout-timers.js'
import { type Accounts, createAccounts } from './connect/accounts.js'
import { collectConnect } from './connect/connect-charges.js'
import { catalogueView } from './engine/catalogue.js'
import { createEngine, type Engine } from './engine/engine.js'
import type { Resource } from './engine/resource.js'
import { createDelivery, type Delivery } from './events/delivery/delivery.js'
import { createTrigger, type Trigger } from './events/delivery/trigger.js'
import { createDestinations, type Destinations } from './events/destinations/destinations.js'
import { createEventStore, type EventStore } from './events/event-store.js'
import type { FaultHooks } from './fault-hooks.js'
import type { Kernel } from './kernel-parts.js'
import { BALANCE_TRANSACTION_OBJECT, createLedger, type Ledger } from './ledger/ledger.js'
import { createMoneyTimers } from './ledger/money-timers.js'
import type { Gate } from './limits/admission.js'
import { createLimiter, type Limiter } from './limits/limiter.js'
import { type LimitsConfig, resolveLimits } from './limits/limits-option.js'
import { createLockManager, type LockManager } from './locks/lock-manager.js'
import { defaultCustomerKey } from './meters/meter.js'
import { createMeterEvents, type MeterEvents } from './meters/meter-events.js'
import { createMeters, METER_OBJECT, type Meters } from './meters/meters.js'
import { createSessions, SESSION_OBJECT, type Sessions } from './meters/stream-sessions.js'
import { type Charges, createCharges } from './payments/charges.js'
import { createDisputes } from './payments/disputes/disputes.js'
import { createOffSessionPayments, type OffSessionPayments } from './payments/off-session/off-session-payments.js'
import { createPaymentIntents, type PaymentIntents, savedForOffSession } from './payments/payment-intents.js'
import { createPaymentMethods, type PaymentMethods } from './payments/payment-methods.js'
import { createRefundTimers } from './payments/refunds/refund-timers.js'
import type { ResourcePorts } from './resource-ports.js'
import { servedDeclarations as declarations } from './served-declarations.js'

// Admission and Gate live in a small module of their own, so limits and locks (which the service
// composes) depend on it and not on the service: no cycle. Re-exported here for existing importers.
export type { Admission, Gate } from './limits/admission.js'

/**
 * The domain root: every area of the simulated service over one kernel. Areas are plain
 * TypeScript; the HTTP layer translates requests into calls on them.
 */
export interface Service {
  readonly kernel: Kernel
  readonly timeline: RequestTimeline
  readonly accounts: Accounts
  readonly events: EventStore
  readonly sessions: Sessions
  /** Event destinations (webhook endpoints) per account and mode. */
  readonly destinations: Destinations
  /** Webhook delivery: routing, signing, attempts, retries, fault knobs. */
  readonly delivery: Delivery
  /** Creates realistic events of any type (like the provider's CLI `trigger`). */
  readonly trigger: Trigger
  /** Billing meters per account and mode (read access; the engine stores them). */
  readonly meters: Meters
  /** Meter events (sync and stream), their async processing and the aggregates. */
  readonly meterEvents: MeterEvents
  /** Double-entry balance transactions per account, mode and currency. */
  readonly ledger: Ledger
  /** The resource engine: every declared v1 resource (src/domain/resources), its CRUD operations and `expand`. */
  readonly engine: Engine
  /** Declared resources the behaviours use by name (the engine's `customer` and `product`). */
  readonly customers: Resource
  readonly products: Resource
  /** The domain API of payment methods, charges and payment intents (over the engine's stores). */
  readonly paymentMethods: PaymentMethods
  readonly charges: Charges
  readonly paymentIntents: PaymentIntents
  /** `/v2/payments/off_session_payments`. */
  readonly offSessionPayments: OffSessionPayments
  /** Subscriptions' billing periods, invoices, their payment and retries, test clocks. */
  readonly billing: Billing
  /** Checkout sessions' expiry and delayed payments on the clock. */
  readonly checkoutTimers: CheckoutTimers
  /** Rate, concurrency and read-allocation limits from the limit table (undefined when switched off). */
  readonly limits: Limiter | undefined
  /** Object locks of mutations and internal processes (undefined when switched off). */
  readonly locks: LockManager | undefined
  /** Admission gates, run in order before every handler. */
  readonly gates: Gate[]
}

export interface ServiceOptions {
  defaultVersion: string
  /** The resolved `limits` option; the spec's defaults when omitted. */
  limits?: LimitsConfig
  /** Virtual ms a request holds the object lock it takes (the simulator's service time). */
  requestHoldMs?: number
  /** The fault port (indeterminate answers aside, which the HTTP layer is given): no faults when omitted. */
  faults?: FaultHooks
  /**
   * The state is loaded right after construction (a fork, a snapshot): what a new simulation
   * starts with (the platform account) is not made, since the load replaces it.
   */
  restoring?: boolean
}

/**
 * Builds the domain over one kernel (see {@link Service}); the parts are made in a fixed order,
 * since each may register snapshot state, draw ids or subscribe to events as it is made.
 *
 * @example
 * const service = createService(kernel, timeline, { defaultVersion: '2025-03-31.basil' })
 */
export function createService(kernel: Kernel, timeline: RequestTimeline, options: ServiceOptions): Service {
  const late: LateParts = { engine: undefined, billing: undefined, ports: undefined }
  const eventing = buildEventing(kernel, options, late)
  const metering = buildMetering(kernel, timeline, options, eventing, late)
  const ledger = buildLedger(kernel, eventing.accounts, late)
  const payments = buildPayments(kernel, eventing, ledger, late)
  const checkoutTimers = createCheckoutTimers(kernel, () => engineOf(late))
  const moneyTimers = createMoneyTimers(kernel, eventing.events, () => engineOf(late))
  const refundTimers = createRefundTimers(kernel, () => engineOf(late), payments.charges)
  const ports = portsOf(kernel, eventing, metering, ledger, payments, { checkoutTimers, moneyTimers, refundTimers }, late)
  const served = buildEngine(kernel, eventing, payments, ports, late)
  const limitsConfig = options.limits ?? resolveLimits(undefined)
  const billing = buildBilling(kernel, eventing, metering, payments, served.engine, limitsConfig, late)
  const admission = buildAdmission(kernel, options, limitsConfig, ledger, metering)
  return {
    kernel,
    timeline,
    accounts: eventing.accounts,
    events: eventing.events,
    sessions: metering.sessions,
    destinations: eventing.destinations,
    delivery: eventing.delivery,
    trigger: served.trigger,
    meters: metering.meters,
    meterEvents: metering.meterEvents,
    ledger,
    engine: served.engine,
    customers: served.customers,
    paymentMethods: payments.paymentMethods,
    charges: payments.charges,
    paymentIntents: payments.paymentIntents,
    products: served.products,
    offSessionPayments: served.offSessionPayments,
    billing,
    checkoutTimers,
    limits: admission.limits,
    locks: admission.locks,
    gates: admission.gates,
  }
}

/**
 * Parts made after the ones that use them: meters, payment methods, charges and payment intents
 * are engine objects, and the engine is made after its ports, so the areas read it on use.
 */
interface LateParts {
  engine: Engine | undefined
  billing: Billing | undefined
  ports: ResourcePorts | undefined
}

function engineOf(late: LateParts): Engine {
  if (late.engine === undefined) throw new Error('service: the engine is not built yet')
  return late.engine
}

type Eventing = Pick<Service, 'accounts' | 'events' | 'sessions' | 'destinations' | 'delivery'>

/** Accounts, the event store, stream sessions, destinations and delivery. */
function buildEventing(kernel: Kernel, options: ServiceOptions, late: LateParts): Eventing {
  const accounts = createAccounts(kernel, options.defaultVersion, options.restoring === true)
  const events = createEventStore(kernel, accounts, () => late.engine)
  const sessions = createSessions(kernel, () => engineOf(late).resource(SESSION_OBJECT))
  const destinations = createDestinations(kernel, accounts, () => engineOf(late))
  const delivery = createDelivery(kernel, events, destinations, accounts, options.faults)
  return { accounts, events, sessions, destinations, delivery }
}

type Metering = Pick<Service, 'meters' | 'meterEvents' | 'sessions'>

function buildMetering(
  kernel: Kernel,
  timeline: RequestTimeline,
  options: ServiceOptions,
  eventing: Eventing,
  late: LateParts,
): Metering {
  const meters = createMeters(() => engineOf(late).resource(METER_OBJECT))
  const meterEvents = createMeterEvents(kernel, timeline, meters, eventing.events, options.faults)
  return { meters, meterEvents, sessions: eventing.sessions }
}

function buildLedger(kernel: Kernel, accounts: Accounts, late: LateParts): Ledger {
  return createLedger(
    kernel,
    () => engineOf(late).resource(BALANCE_TRANSACTION_OBJECT),
    (platform) =>
      accounts
        .list()
        .filter((a) => a.platform === platform)
        .map((a) => a.id),
  )
}

type Payments = Pick<ResourcePorts, 'paymentMethods' | 'charges' | 'disputes' | 'paymentIntents'>

/** Payment methods, disputes, charges and payment intents, over the engine's stores. */
function buildPayments(kernel: Kernel, { events }: Eventing, ledger: Ledger, late: LateParts): Payments {
  const engine = (): Engine => engineOf(late)
  const paymentMethods = createPaymentMethods({
    resource() {
      return engineOf(late).resource('payment_method')
    },
    events,
    setUp: savedForOffSession(engine),
  })
  const disputes = createDisputes({ kernel, events, ledger, engine })
  const charges = createCharges({
    kernel,
    events,
    ledger,
    resource() {
      return engineOf(late).resource('charge')
    },
    paymentMethods,
    disputes,
    onCaptured(scope, charge, origin) {
      return collectConnect({ engine: engineOf(late), ports: late.ports as ResourcePorts }, scope, charge, origin)
    },
  })
  const paymentIntents = createPaymentIntents({ kernel, events, engine, paymentMethods, charges })
  return { paymentMethods, disputes, charges, paymentIntents }
}

/** What behaviours are handed: the service's other areas (billing read once it is built). */
function portsOf(
  kernel: Kernel,
  eventing: Eventing,
  metering: Metering,
  ledger: Ledger,
  payments: Payments,
  timers: Pick<ResourcePorts, 'checkoutTimers' | 'moneyTimers' | 'refundTimers'>,
  late: LateParts,
): ResourcePorts {
  const { accounts, events, destinations, delivery } = eventing
  const ports: ResourcePorts = {
    paymentMethods: payments.paymentMethods,
    charges: payments.charges,
    disputes: payments.disputes,
    paymentIntents: payments.paymentIntents,
    metering: {
      meters: metering.meters,
      meterEvents: metering.meterEvents,
      sessions: metering.sessions,
      meterId(mode) {
        return kernel.ids.next(`mtr_${mode}`, 24)
      },
      customerKey: defaultCustomerKey(kernel.prefix),
    },
    ledger,
    accounts,
    events,
    destinations,
    delivery,
    checkoutTimers: timers.checkoutTimers,
    moneyTimers: timers.moneyTimers,
    refundTimers: timers.refundTimers,
    get billing(): Billing {
      if (late.billing === undefined) throw new Error('service: billing is not built yet')
      return late.billing
    },
  }
  late.ports = ports
  return ports
}

type EngineParts = Pick<Service, 'engine' | 'trigger' | 'customers' | 'products' | 'offSessionPayments'>

/** The engine over the served declarations, and the parts that read its resources by name. */
function buildEngine(kernel: Kernel, eventing: Eventing, payments: Payments, ports: ResourcePorts, late: LateParts): EngineParts {
  const { events, accounts } = eventing
  const engine = createEngine({ kernel, events, view: catalogueView, declarations, ports })
  late.engine = engine
  const trigger = createTrigger(kernel, events, accounts, engine)
  const customers = engine.resource('customer')
  const products = engine.resource('product')
  const offSessionPayments = createOffSessionPayments(kernel, events, customers, payments.paymentMethods, payments.charges)
  return { engine, trigger, customers, products, offSessionPayments }
}

function buildBilling(
  kernel: Kernel,
  { events }: Eventing,
  metering: Metering,
  payments: Payments,
  engine: Engine,
  limitsConfig: LimitsConfig,
  late: LateParts,
): Billing {
  const { paymentIntents } = payments
  const billing = createBilling({
    kernel,
    events,
    engine,
    meters: metering.meters,
    meterEvents: metering.meterEvents,
    paymentMethods: payments.paymentMethods,
    paymentIntents() {
      return paymentIntents
    },
    limitRows: limitsConfig.rows,
  })
  late.billing = billing
  paymentIntents.onOutcome(billing.intentOutcome)
  return billing
}

type Admitting = Pick<Service, 'limits' | 'locks' | 'gates'>

/** The limiter and the lock manager (each off when configured so) and the gates they add. */
function buildAdmission(
  kernel: Kernel,
  options: ServiceOptions,
  limitsConfig: LimitsConfig,
  ledger: Ledger,
  metering: Metering,
): Admitting {
  const limits =
    limitsConfig.rows.length === 0 && limitsConfig.reads === undefined
      ? undefined
      : createLimiter(kernel, { rows: limitsConfig.rows, reads: limitsConfig.reads, transactions: ledger })
  const locks =
    limitsConfig.lockWaitMs === undefined
      ? undefined
      : createLockManager(kernel, { waitMs: limitsConfig.lockWaitMs, requestHoldMs: options.requestHoldMs ?? 0 })
  if (locks) metering.meterEvents.useLocks(locks)
  const gates: Gate[] = []
  if (limits) gates.push(limits.gate)
  if (locks) gates.push(locks.gate)
  return { limits, locks, gates }
}
