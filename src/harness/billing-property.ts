import { engineBillingSource } from '#domain/index.js'
import type { FaultsInput } from '#faults/index.js'
import { continueAs, createSimulator, type Simulator } from '#simulator/index.js'
import { checkBilling } from './checkers/billing-checker.js'
import type { Violation } from './checkers/violation.js'
import { createDurableStore } from './durable-store.js'
import { type ReplayHint, replayReported } from './failure-report.js'
import { refuseArgument } from './refuse-argument.js'
import { advance, drive } from './run/drive.js'
import { type SimulatorChoice, simulatorOptionsOf } from './run/simulator-choice.js'
import type { Usage, UsageReporter, UsageReporterFactory } from './subjects.js'
import { HarnessInputError, validateCheckOptions } from './validate-input.js'

const DAY = 86_400_000
const EVENT_NAME = 'harness_billing'

/**
 * Settings of {@link checkUsageBilling}, with the simulator options of its run (`SimulatorChoice`:
 * `headerPrefix`, `apiVersion`, `simOptions`, or a `base` simulator of the user's own to fork).
 */
export interface UsageBillingOptions extends SimulatorChoice {
  /** Simulation seed (the workload and the faults follow it). Default 1. */
  readonly seed?: number
  /** Whole monthly billing periods to run. Default 1. */
  readonly months?: number
  /** Metered subscriptions (one customer each). Default 3. */
  readonly customers?: number
  /** Batches each customer reports per day. Default 2. */
  readonly batchesPerDay?: number
  /** Price per unit, minor units. Default 3. */
  readonly unitAmount?: number
  /** Faults during the usage (setup and the final invoicing run without). Default the realistic preset. */
  readonly faults?: FaultsInput
  /** Virtual time a report may take before it counts as hung. Default 2 hours. */
  readonly reportBudgetMs?: number
}

/** The outcome of {@link checkUsageBilling}. */
export interface UsageBillingResult {
  readonly ok: boolean
  readonly violations: readonly Violation[]
  /** Batches reported, and how many the reporter acknowledged. */
  readonly batches: number
  readonly acked: number
  /** Invoice lines that billed metered usage. */
  readonly lines: number
  readonly traceHash: string
  /** How to run the failure again (the simulation seed, one-line command); printed too. */
  readonly replay?: ReplayHint
}

type Meter = { id: string; customer_mapping: { event_payload_key: string }; value_settings: { event_payload_key: string } }

/** A form POST with the platform's test key; anything but 200 fails the check's setup. */
function formPoster(sim: Simulator) {
  const key = sim.platform.secretKey.test
  return async (path: string, fields: Record<string, string>) => {
    const res = await sim.fetch(`https://api.service.test${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    })
    const body = (await res.json()) as Record<string, unknown>
    if (res.status !== 200) throw new Error(`checkUsageBilling: setup ${path} answered ${res.status}: ${JSON.stringify(body)}`)
    return body
  }
}

/** A metered price on the meter and `count` customers subscribed to it, each with a card. */
async function subscribeCustomers(sim: Simulator, meter: string, count: number, unitAmount: number): Promise<string[]> {
  const form = formPoster(sim)
  const product = await form('/v1/products', { name: 'Metered usage' })
  const price = await form('/v1/prices', {
    product: String(product.id),
    currency: 'usd',
    unit_amount: String(unitAmount),
    'recurring[interval]': 'month',
    'recurring[usage_type]': 'metered',
    'recurring[meter]': meter,
  })
  const customers: string[] = []
  for (let i = 0; i < count; i++) {
    const c = await form('/v1/customers', { email: `billing${i}@example.com` })
    const pm = await form('/v1/payment_methods/pm_card_visa/attach', { customer: String(c.id) })
    await form(`/v1/customers/${String(c.id)}`, { 'invoice_settings[default_payment_method]': String(pm.id) })
    await form('/v1/subscriptions', { customer: String(c.id), 'items[0][price]': String(price.id) })
    customers.push(String(c.id))
  }
  return customers
}

function reporterOn(sim: Simulator, factory: UsageReporterFactory, meter: Meter, rng: { next(): number }): UsageReporter {
  const reporter = factory({
    fetch: sim.fetch,
    clock: sim.clock,
    baseUrl: 'https://api.service.test',
    meterEventsUrl: 'https://meter-events.service.test',
    secretKey: sim.platform.secretKey.test,
    eventName: EVENT_NAME,
    customerKey: meter.customer_mapping.event_payload_key,
    valueKey: meter.value_settings.event_payload_key,
    prefix: sim.service.kernel.prefix,
    random: () => rng.next(),
    store: createDurableStore(),
  })
  if (typeof (reporter as Partial<UsageReporter> | null)?.report !== 'function')
    throw new HarnessInputError('checkUsageBilling: reporter factory must return { report }')
  return reporter
}

interface UsageLoop {
  readonly sim: Simulator
  readonly reporter: UsageReporter
  readonly customers: readonly string[]
  readonly rng: { next(): number }
  readonly end: number
  readonly gap: number
  readonly budgetMs: number
}

/** Reports usage for every customer `gap` apart until `end`, each batch a fault step; counts batches. */
async function reportUsage(loop: UsageLoop): Promise<{ batches: number; acked: number }> {
  const { sim, reporter, customers, rng, end, gap } = loop
  const trace = sim.service.kernel.trace
  let n = 0
  let batches = 0
  let acked = 0
  let step = 0
  while (sim.clock.now + gap <= end) {
    for (const customer of customers) {
      sim.faults.step(++step)
      const size = 1 + Math.floor(rng.next() * 5)
      const units: Usage[] = Array.from({ length: size }, () => ({
        id: `u${++n}`,
        customer,
        value: 1 + Math.floor(rng.next() * 9),
      }))
      const from = sim.clock.now
      const r = await drive(sim, reporter.report(units), loop.budgetMs)
      const outcome = r.state === 'ok' ? 'acked' : r.state === 'error' ? 'failed' : 'hung'
      batches++
      if (outcome === 'acked') acked++
      trace.append('harness.billing.usage', { units, outcome, from, to: sim.clock.now })
    }
    await advance(sim, Math.max(0, Math.min(gap, end - sim.clock.now - 1)))
  }
  return { batches, acked }
}

/** Traces every invoice line of the ended periods on the meter; answers how many. */
function traceLines(sim: Simulator, customers: readonly string[], meter: string, end: number, unitAmount: number): number {
  const source = engineBillingSource(sim.service)
  const scope = { account: sim.platform.id, mode: 'test' as const }
  let lines = 0
  for (const customer of customers) {
    for (const period of source.periods(scope, customer, meter)) {
      if (period.end > end) continue
      for (const l of source.lines(scope, customer, meter, period)) {
        lines++
        sim.service.kernel.trace.append('harness.billing.line', {
          customer,
          invoice: l.invoice,
          status: l.status,
          start: period.start,
          end: period.end,
          quantity: l.quantity,
          amount: l.amount,
          unitAmount,
        })
      }
    }
  }
  return lines
}

/** The choice's fields alone, checked as a ready-made check's options are. */
function pickChoice(options: UsageBillingOptions): SimulatorChoice {
  const { headerPrefix, apiVersion, simOptions, base } = options
  return {
    ...(headerPrefix === undefined ? {} : { headerPrefix }),
    ...(apiVersion === undefined ? {} : { apiVersion }),
    ...(simOptions === undefined ? {} : { simOptions }),
    ...(base === undefined ? {} : { base }),
  }
}

/** The run's simulator: a fresh one at the start of January 2026, or a fork of the user's base. */
function billingSimulator(options: UsageBillingOptions): Simulator {
  const seed = options.seed ?? 1
  const faults = options.faults ?? { preset: 'realistic' }
  if (options.base !== undefined) {
    const sim = options.base.fork()
    continueAs(sim, { seed, faults })
    return sim
  }
  return createSimulator({ start: '2026-01-01T00:00:00.000Z', ...simulatorOptionsOf(options), seed, faults })
}

/** The same instant `months` calendar months later (UTC). */
function monthsLater(at: number, months: number): number {
  const d = new Date(at)
  return Date.UTC(
    d.getUTCFullYear(),
    d.getUTCMonth() + months,
    d.getUTCDate(),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
    d.getUTCMilliseconds(),
  )
}

/**
 * Ready-made property: runs a usage reporter through whole billing periods (metered subscriptions
 * on one meter, usage every day under faults), lets the periods end, the invoices finalize and get
 * paid, and checks "every acknowledged unit is billed exactly once, in the period of its timestamp,
 * at the price of the subscription item" (`checkBilling`), with witnesses.
 *
 * @example
 * const result = await checkUsageBilling(referenceUsageReporter, { months: 2 })
 * expect(result.violations).toEqual([])
 */
export async function checkUsageBilling(
  factory: UsageReporterFactory,
  options: UsageBillingOptions = {},
): Promise<UsageBillingResult> {
  refuseArgument('checkUsageBilling', 'options', options, 'options')
  if (typeof factory !== 'function') throw new TypeError('checkUsageBilling: expected a reporter factory (env) => { report }')
  if ((options as { workers?: unknown }).workers !== undefined)
    throw new HarnessInputError(
      "checkUsageBilling: option 'workers' is not taken: the check is one long run, not many runs to spread over threads (vitest's --shard spreads test files over CI jobs)",
    )
  const months = options.months ?? 1
  const unitAmount = options.unitAmount ?? 3
  validateCheckOptions('checkUsageBilling', pickChoice(options))
  const sim = billingSimulator(options)
  const startedAt = sim.clock.now
  // The setup is made without faults; the run's rates come back for the usage.
  const rates = sim.faults.rates()
  sim.faults.clear()
  const meter = sim.admin.createMeter({ eventName: EVENT_NAME }) as Meter
  const customers = await subscribeCustomers(sim, meter.id, options.customers ?? 3, unitAmount)
  const rng = sim.service.kernel.rng.stream('harness.billing')
  const reporter = reporterOn(sim, factory, meter, rng)
  sim.faults.setRates(rates)
  const end = monthsLater(startedAt, months)
  const gap = DAY / (options.batchesPerDay ?? 2)
  const budgetMs = options.reportBudgetMs ?? 2 * 3_600_000
  const { batches, acked } = await reportUsage({ sim, reporter, customers, rng, end, gap, budgetMs })
  // The periods end, invoices are created, finalized after the grace period and paid.
  sim.faults.clear()
  await advance(sim, Math.max(0, end - sim.clock.now) + 3 * DAY)
  const lines = traceLines(sim, customers, meter.id, end, unitAmount)
  const violations = checkBilling(sim.trace.entries())
  const result = { ok: violations.length === 0, violations, batches, acked, lines, traceHash: sim.trace.hash() }
  return result.ok ? result : { ...result, replay: replayReported('checkUsageBilling', options.seed ?? 1, result).replay }
}
