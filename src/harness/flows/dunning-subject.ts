import { checkDunningTrace } from '../checkers/dunning-checker.js'
import { HarnessInputError } from '../validate-input.js'
import { dunningActions } from './dunning-steps.js'
import type { FlowClientEnv, FlowSubject } from './flow-run.js'

/** Where a dunning client sends what it tells customers (the harness records each message). */
export interface DunningNotices {
  /** Tells the customer that the invoice's payment failed. `event`: the event that caused it. */
  paymentFailed(invoice: string, customer: string, event?: string): void
  /** Tells the customer that the invoice is paid and the account restored. */
  restored(invoice: string, customer: string, event?: string): void
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
 * The dunning property as a billing flow subject: the client's messages are trace entries the
 * dunning checker sets beside the invoice events it accepted.
 *
 * @example
 * const report = await runFlow(program, dunningSubject(referenceDunningClient, 'checkDunning'))
 */
export function dunningSubject(factory: DunningClientFactory, api: string): FlowSubject {
  return {
    start(run) {
      const trace = run.sim.service.kernel.trace
      // Each message is the app's effect (with its causal context) and a line of the outbox.
      const send = (kind: 'notice' | 'restore', invoice: string, customer: string, event?: string) => {
        run.env.effects.record(`dunning.${kind}`, String(invoice), { customer: String(customer) })
        trace.append(`harness.dunning.${kind}`, { invoice: String(invoice), customer: String(customer), event: event ?? null })
      }
      const notices: DunningNotices = {
        paymentFailed: (invoice, customer, event) => send('notice', invoice, customer, event),
        restored: (invoice, customer, event) => send('restore', invoice, customer, event),
      }
      const made = factory({ ...run.env, notices }) as Partial<DunningClient> | undefined
      if (typeof made?.handler !== 'function') throw new HarnessInputError(`${api}: dunning factory must return { handler }`)
      return made as DunningClient
    },
    checkpoint: () => undefined,
    check: (entries) => checkDunningTrace(entries),
    actions: dunningActions,
  }
}
