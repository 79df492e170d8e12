import { checkDunningTrace, type DunningCheckOptions } from '../checkers/dunning-checker.js'
import { providerView } from '../rules/state-matches.js'
import { HarnessInputError } from '../validate-input.js'
import { dunningActions } from './dunning-steps.js'
import { providerStatus } from './flow-forgery.js'
import type { FlowClientEnv, FlowRun, FlowSubject } from './flow-run.js'

/** Where a dunning client sends what it tells customers (the harness records each message). */
export interface DunningNotices {
  /** Tells the customer that the invoice's payment failed. `event`: the event that caused it. */
  paymentFailed(invoice: string, customer: string, event?: string): void
  /** Tells the customer that the invoice is paid and the account restored. */
  restored(invoice: string, customer: string, event?: string): void
  /** Restricts the customer's account: collection gave up on an invoice (`invoice.marked_uncollectible`). */
  restricted(customer: string, event?: string): void
  /** Lifts the restriction: no invoice of the customer is left written off. */
  reinstated(customer: string, event?: string): void
}

/** What a dunning client is given: a billing client's env and its outbox. */
export interface DunningEnv extends FlowClientEnv {
  readonly notices: DunningNotices
}

/**
 * The user's dunning client: a webhook `handler` that tells customers about failed payments and
 * restores them when the invoice is paid.
 *
 * @example
 * const client: DunningClient = { handler: async (req) => new Response('ok') }
 */
export interface DunningClient {
  handler(request: Request): Response | Promise<Response>
}

/** Builds a dunning client for one run. */
export type DunningClientFactory = (env: DunningEnv) => DunningClient

/**
 * The provider's truth the standing rule reads, at the end: each customer's invoices written off
 * and still unpaid, and those written off once and since paid or voided.
 */
function traceStanding(run: FlowRun): void {
  const view = providerView(run)
  const off = new Map(run.setup.customers.map((c) => [c, { uncollectible: [] as string[], settled: [] as string[] }]))
  for (const inv of view.list('invoice')) {
    const c = off.get(String(inv.customer))
    const once = (inv.status_transitions as { marked_uncollectible_at?: unknown } | undefined)?.marked_uncollectible_at
    if (inv.status === 'uncollectible') c?.uncollectible.push(String(inv.id))
    else if (typeof once === 'number') c?.settled.push(String(inv.id))
  }
  for (const [customer, invoices] of off)
    run.sim.service.kernel.trace.append('harness.dunning.standing', { customer, ...invoices })
}

/**
 * Notes a failure the app accepted while the provider had already settled its invoice (a late or
 * redelivered `invoice.payment_failed`): an app that reads the invoice first owes no notice for it.
 * Traced only then, so a run without one keeps its trace.
 */
function watchStaleFailures(run: FlowRun, watched: WeakSet<FlowRun>): void {
  watched.add(run)
  const trace = run.sim.service.kernel.trace
  trace.subscribe((e) => {
    if (e.kind !== 'harness.flow.ack' || e.data.type !== 'invoice.payment_failed' || typeof e.data.object !== 'string') return
    const status = providerStatus(run.sim, e.data.object)
    if (status === 'paid' || status === 'void')
      trace.append('harness.dunning.stale_failure', {
        event: String(e.data.event),
        invoice: e.data.object,
        provider: String(status),
      })
  })
}

/**
 * The dunning property as a billing flow subject: the client's messages are trace entries the
 * dunning checker sets beside the invoice events it accepted.
 *
 * @example
 * const report = await runFlow(program, dunningSubject(referenceDunningClient, 'checkDunning'))
 */
export function dunningSubject(factory: DunningClientFactory, api: string, options: DunningCheckOptions = {}): FlowSubject {
  const watched = new WeakSet<FlowRun>()
  return {
    start(run) {
      const trace = run.sim.service.kernel.trace
      if (!watched.has(run)) watchStaleFailures(run, watched)
      // Each message is the app's effect (with its causal context) and a line of the outbox.
      const send = (kind: 'notice' | 'restore', invoice: string, customer: string, event?: string) => {
        run.env.effects.record(`dunning.${kind}`, String(invoice), { customer: String(customer) })
        trace.append(`harness.dunning.${kind}`, { invoice: String(invoice), customer: String(customer), event: event ?? null })
      }
      const standing = (kind: 'restrict' | 'reinstate', customer: string, event?: string) => {
        run.env.effects.record(`dunning.${kind}`, String(customer))
        trace.append(`harness.dunning.${kind}`, { customer: String(customer), event: event ?? null })
      }
      const notices: DunningNotices = {
        paymentFailed: (invoice, customer, event) => send('notice', invoice, customer, event),
        restored: (invoice, customer, event) => send('restore', invoice, customer, event),
        restricted: (customer, event) => standing('restrict', customer, event),
        reinstated: (customer, event) => standing('reinstate', customer, event),
      }
      const made = factory({ ...run.env, notices }) as Partial<DunningClient> | undefined
      if (typeof made?.handler !== 'function') throw new HarnessInputError(`${api}: dunning factory must return { handler }`)
      return made as DunningClient
    },
    checkpoint: (run, final) => {
      if (final) traceStanding(run)
    },
    check: (entries) => checkDunningTrace(entries, options),
    actions: dunningActions,
  }
}
