import type { Engine } from '../engine/engine.js'
import type { EventStore } from '../events/event-store.js'
import type { Kernel } from '../kernel-parts.js'
import type { LimitRow } from '../limits/limit-row.js'
import type { MeterEvents } from '../meters/meter-events.js'
import type { Meters } from '../meters/meters.js'
import { type Scope, scopeKey } from '../mode.js'
import type { PaymentIntents } from '../payments/payment-intents.js'
import type { PaymentMethods } from '../payments/payment-methods.js'
import type { InvoiceState, SubState } from './billing-types.js'
import { createLines, type Lines } from './lines.js'
import { simulatorTimeline, type TestClockTimeline, type Timeline } from './timelines.js'
import { createUsageRecords } from './usage-records.js'

export interface BillingOptions {
  readonly kernel: Kernel
  readonly events: EventStore
  readonly engine: Engine
  readonly meters: Meters
  readonly meterEvents: MeterEvents
  readonly paymentMethods: PaymentMethods
  /** Resolved lazily: payment intents are made after the engine. */
  readonly paymentIntents: () => PaymentIntents
  /** The limit table in force; billing counts its `subscription` rows. */
  readonly limitRows: readonly LimitRow[]
}

/**
 * What every part of billing shares: the simulator's services, billing's own records (test clock
 * timelines, subscription cycles, invoice states, keyed by scope and id) and the engine resources
 * it reads and writes.
 */
export type BillingContext = ReturnType<typeof createContext>

export function createContext(options: BillingOptions) {
  const { kernel, engine } = options
  const r = {
    customer() {
      return engine.resource('customer')
    },
    price() {
      return engine.resource('price')
    },
    product() {
      return engine.resource('product')
    },
    subscription() {
      return engine.resource('subscription')
    },
    item() {
      return engine.resource('subscription_item')
    },
    invoice() {
      return engine.resource('invoice')
    },
    invoiceItem() {
      return engine.resource('invoiceitem')
    },
    invoicePayment() {
      return engine.resource('invoice_payment')
    },
    clock() {
      return engine.resource('test_helpers.test_clock')
    },
    taxRate() {
      return engine.resource('tax_rate')
    },
  }
  const usageRecords = createUsageRecords()
  const simLine: Timeline = simulatorTimeline(kernel.clock, kernel.scheduler)
  let lines: Lines | undefined
  return {
    options,
    kernel,
    engine,
    events: options.events,
    r,
    simLine,
    clocks: new Map<string, TestClockTimeline>(),
    subs: new Map<string, SubState>(),
    invoiceStates: new Map<string, InvoiceState>(),
    /** The open invoice each invoice payment intent pays, by scope and intent id (rebuilt from the invoice states on load). */
    intentInvoices: new Map<string, string>(),
    usageRecords,
    /** Invoice lines, made on first use: a simulation that never bills never needs them. */
    get lines(): Lines {
      lines ??= createLines({ kernel, engine, meters: options.meters, meterEvents: options.meterEvents, usageRecords })
      return lines
    },
    key(scope: Scope, id: string) {
      return `${scopeKey(scope)}|${id}`
    },
    failed(label: string, error: unknown) {
      return kernel.trace.append('scheduler.task_failed', {
        label,
        message: error instanceof Error ? error.message : String(error),
      })
    },
  }
}
