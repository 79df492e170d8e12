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

export function createService(kernel: Kernel, timeline: RequestTimeline, options: ServiceOptions): Service {
  const accounts = createAccounts(kernel, options.defaultVersion, options.restoring === true)
  const events = createEventStore(kernel, accounts, () => built)
  const sessions = createSessions(kernel, () => engineOf().resource(SESSION_OBJECT))
  const destinations = createDestinations(kernel, accounts, () => engine)
  const delivery = createDelivery(kernel, events, destinations, accounts, options.faults)
  // Meters, payment methods, charges and payment intents are engine objects; the engine is made
  // after its ports, so the areas read it on use.
  let built: Engine | undefined
  const engineOf = (): Engine => {
    if (built === undefined) throw new Error('service: the engine is not built yet')
    return built
  }
  const meters = createMeters(() => engineOf().resource(METER_OBJECT))
  const meterEvents = createMeterEvents(kernel, timeline, meters, events, options.faults)
  const ledger = createLedger(
    kernel,
    () => engineOf().resource(BALANCE_TRANSACTION_OBJECT),
    (platform) =>
      accounts
        .list()
        .filter((a) => a.platform === platform)
        .map((a) => a.id),
  )
  const paymentMethods = createPaymentMethods({
    resource() {
      return engineOf().resource('payment_method')
    },
    events,
    setUp: savedForOffSession(engineOf),
  })
  const disputes = createDisputes({ kernel, events, ledger, engine: engineOf })
  const charges = createCharges({
    kernel,
    events,
    ledger,
    resource() {
      return engineOf().resource('charge')
    },
    paymentMethods,
    disputes,
    onCaptured(scope, charge, origin) {
      return collectConnect({ engine: engineOf(), ports }, scope, charge, origin)
    },
  })
  const paymentIntents = createPaymentIntents({ kernel, events, engine: engineOf, paymentMethods, charges })
  const checkoutTimers = createCheckoutTimers(kernel, engineOf)
  const moneyTimers = createMoneyTimers(kernel, events, engineOf)
  let billingArea: Billing | undefined
  const ports: ResourcePorts = {
    paymentMethods,
    charges,
    disputes,
    paymentIntents,
    metering: {
      meters,
      meterEvents,
      sessions,
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
    checkoutTimers,
    moneyTimers,
    get billing(): Billing {
      if (billingArea === undefined) throw new Error('service: billing is not built yet')
      return billingArea
    },
  }
  const engine = createEngine({ kernel, events, view: catalogueView, declarations, ports })
  built = engine
  const trigger = createTrigger(kernel, events, accounts, engine)
  const customers = engine.resource('customer')
  const products = engine.resource('product')
  const offSessionPayments = createOffSessionPayments(kernel, events, customers, paymentMethods, charges)
  const limitsConfig = options.limits ?? resolveLimits(undefined)
  const billing = createBilling({
    kernel,
    events,
    engine,
    meters,
    meterEvents,
    paymentMethods,
    paymentIntents() {
      return paymentIntents
    },
    limitRows: limitsConfig.rows,
  })
  billingArea = billing
  paymentIntents.onOutcome(billing.intentOutcome)
  const limits =
    limitsConfig.rows.length === 0 && limitsConfig.reads === undefined
      ? undefined
      : createLimiter(kernel, { rows: limitsConfig.rows, reads: limitsConfig.reads, transactions: ledger })
  const locks =
    limitsConfig.lockWaitMs === undefined
      ? undefined
      : createLockManager(kernel, { waitMs: limitsConfig.lockWaitMs, requestHoldMs: options.requestHoldMs ?? 0 })
  if (locks) meterEvents.useLocks(locks)
  const gates: Gate[] = []
  if (limits) gates.push(limits.gate)
  if (locks) gates.push(locks.gate)
  return {
    kernel,
    timeline,
    accounts,
    events,
    sessions,
    destinations,
    delivery,
    trigger,
    meters,
    meterEvents,
    ledger,
    engine,
    customers,
    paymentMethods,
    charges,
    paymentIntents,
    products,
    offSessionPayments,
    billing,
    checkoutTimers,
    limits,
    locks,
    gates,
  }
}
