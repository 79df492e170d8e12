import type { Checker } from '../checkers/checker.js'
import { clientChecker } from '../checkers/client-checker.js'
import { deliveryChecker } from '../checkers/delivery-checker.js'
import { receiverChecker } from '../checkers/receiver-checker.js'
import { usageChecker } from '../checkers/usage-checker.js'
import type { Violation } from '../checkers/violation.js'
import { HarnessInputError } from '../validate-input.js'
import type { RunReport } from './run-options.js'
import type { RunState } from './run-state.js'

/** What the service counted per customer, from its own aggregates, once everything was processed. */
function traceUsageTotals(state: RunState): void {
  const { sim, units, setup } = state
  if (units.length === 0) return
  // Accounted per customer: customers (and values) may repeat across units.
  const customers = [...new Set(units.map((u) => u.customer))]
  // The service's own aggregates (what `sim.admin.meterSummary` reads), by the meter's id.
  const m = setup.meter === undefined ? undefined : { id: setup.meter.id }
  const totals = customers.map((customer) => {
    const s = m === undefined ? { count: 0, sum: 0 } : sim.service.meterEvents.window(m, customer, -Infinity, Infinity)
    return { customer, count: s.count, sum: s.sum }
  })
  sim.service.kernel.trace.append('harness.usage.totals', { customers: totals })
}

/** The receiver's final state against the latest delivered state of each object, and forgeries against none. */
async function traceReceiverState(state: RunState): Promise<void> {
  const { sim, receiver, destination, emitted, skipped, forgedObjects } = state
  if (!receiver || destination === undefined) return
  const trace = sim.service.kernel.trace
  const delivered = new Set(
    sim.admin
      .deliveries({ destination })
      .filter((r) => r.attempts.some((a) => a.outcome === 'delivered'))
      .map((r) => r.eventId),
  )
  const expected = new Map<string, string>()
  for (const e of emitted) if (delivered.has(e.event) && !skipped.has(e.event)) expected.set(e.object, e.status)
  const actual = (await receiver.state()) as Readonly<Record<string, string>> | null | undefined
  if (actual === null || typeof actual !== 'object')
    throw new HarnessInputError(`${state.api}: receiver.state() must return a record of object id to status`)
  for (const [object, status] of expected)
    trace.append('harness.state', { object, expected: status, actual: actual[object] ?? null })
  // A forged delivery must leave no state behind.
  for (const object of forgedObjects) trace.append('harness.state', { object, expected: null, actual: actual[object] ?? null })
}

/** The checkers of the subjects present: usage and client behaviour; receiver and delivery outcomes. */
function checkersOf(state: RunState): Checker[] {
  return [...(state.reporter ? [usageChecker, clientChecker] : []), ...(state.receiver ? [receiverChecker, deliveryChecker] : [])]
}

/**
 * Ends a run: drains it (retries, processing, receiver work), traces what the subjects ended with,
 * and checks the history with the checkers of the subjects present.
 *
 * @example
 * const report = await finishRun(state)
 */
export async function finishRun(state: RunState): Promise<RunReport> {
  const { sim, runner } = state
  await runner.advance(state.options.drainMs ?? 4 * 3_600_000)
  await sim.settle()
  traceUsageTotals(state)
  await traceReceiverState(state)
  const history = { entries: sim.service.kernel.trace.entries(), requests: [], deliveries: [], sim }
  const violations: Violation[] = []
  for (const checker of checkersOf(state)) violations.push(...(await checker.check(history)))
  return { sim, violations, fired: sim.faults.fired(), traceHash: sim.service.kernel.trace.hash() }
}
