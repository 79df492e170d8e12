import { checkFulfilmentTrace, type FulfilmentCheckOptions } from '../checkers/fulfilment-checker.js'
import type { DurableStore } from '../durable-store.js'
import type { FlowClientEnv, FlowSubject } from './flow-run.js'
import { FulfilmentShop, fulfilmentActions } from './fulfilment-shop.js'
import { FULFILMENT_EVENT_TYPES, type FulfilmentPayment, fulfilmentPayments } from './fulfilment-steps.js'

export { FULFILMENT_SUCCESS_URL } from './fulfilment-steps.js'

/** Where a fulfilment client ships orders (the harness records each call with the session's state then). */
export interface FulfilmentOrders {
  /** Ships the order of a checkout session (grants the goods, the access, the download). */
  fulfil(session: string, source?: string): void
  /** Takes a fulfilment back (cancels the shipment, revokes the access). */
  reverse(session: string, source?: string): void
}

/** What a fulfilment client is given: a billing client's env, a durable store and the shop's order desk. */
export interface FulfilmentEnv extends FlowClientEnv {
  /** What the app keeps in its database: survives a restart (`x:restart`), unlike the client's memory. */
  readonly store: DurableStore
  readonly orders: FulfilmentOrders
}

/**
 * The user's fulfilment client: the webhook `handler` of the checkout events, and the success
 * page the customer's browser is sent back to (`successPage(url)`, with the URL
 * `https://shop.harness.test/success?session_id=cs_test_...` as the provider redirects to it).
 *
 * @example
 * const client: FulfilmentClient = { handler: async () => new Response('ok'), successPage: async () => new Response('thanks') }
 */
export interface FulfilmentClient {
  handler(request: Request): Response | Promise<Response>
  successPage(url: string): Response | Promise<Response>
}

/** Builds a fulfilment client (for one run, and again on each redeploy). */
export type FulfilmentClientFactory = (env: FulfilmentEnv) => FulfilmentClient

/** Settings of the fulfilment subject. */
export interface FulfilmentSubjectOptions extends FulfilmentCheckOptions {
  /** What the customer pays with (`x:pay`'s `payment` indexes it; default `fulfilmentPayments`). */
  readonly payments?: readonly FulfilmentPayment[]
}

/**
 * The fulfilment property as a billing flow subject. Its steps (`x:checkout`, `x:pay`, `x:return`,
 * `x:expire`, `x:restart`) make sessions through the API, pay them through the customer surface
 * (`sim.customer.completeCheckout`), send the customer to the client's success page, and redeploy
 * the client from its factory (its `env.store` kept). Each `orders` call is the app's effect
 * (`order.fulfil`, `order.reverse`, with the event it handled, its own read of the session and the
 * provider's state then) and is traced with the session's state (`harness.fulfil.fulfil`,
 * `harness.fulfil.reverse`); at the end each session's state is traced (`harness.fulfil.session`)
 * for the fulfilment rules (`fulfilmentRules`).
 *
 * @example
 * const report = await runFlow(program, fulfilmentSubject(referenceFulfilmentClient, 'checkFulfilment'))
 */
export function fulfilmentSubject(
  factory: FulfilmentClientFactory,
  api: string,
  options: FulfilmentSubjectOptions = {},
): FlowSubject {
  const shop = new FulfilmentShop(factory, api)
  return {
    eventTypes: FULFILMENT_EVENT_TYPES,
    actions: fulfilmentActions(shop, options.payments ?? fulfilmentPayments),
    start: (r) => shop.start(r),
    checkpoint(r, final) {
      if (final) shop.traceSessions(r)
    },
    check: (entries) => checkFulfilmentTrace(entries, options),
  }
}
