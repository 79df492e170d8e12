import type { Json } from '#domain/engine/list.js'
import { checkFulfilmentTrace, type FulfilmentCheckOptions, sessionPaid } from '../checkers/fulfilment-checker.js'
import { createDurableStore, type DurableStore } from '../durable-store.js'
import { HarnessInputError } from '../validate-input.js'
import type { FlowAction, FlowActionContext } from './flow-actions.js'
import type { FlowStep } from './flow-program.js'
import type { FlowClientEnv, FlowRun, FlowSubject } from './flow-run.js'
import { FULFILMENT_EVENT_TYPES, type FulfilmentPayment, fulfilmentPayments } from './fulfilment-steps.js'

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

/** The success URL of the shop: the provider puts the session id in place of the template. */
export const FULFILMENT_SUCCESS_URL = 'https://shop.harness.test/success?session_id={CHECKOUT_SESSION_ID}'

function validClient(made: unknown, api: string): FulfilmentClient {
  const c = made as Partial<FulfilmentClient> | undefined
  if (typeof c?.handler !== 'function' || typeof c.successPage !== 'function')
    throw new HarnessInputError(`${api}: fulfilment factory must return { handler, successPage }`)
  return c as FulfilmentClient
}

/** A step of this property's own kinds, as the data it is. */
const fieldsOf = (step: FlowStep) => step as Readonly<Record<string, unknown>>

function pick(sessions: readonly string[], n: unknown): string | undefined {
  return sessions.length === 0 ? undefined : sessions[Number(n) % sessions.length]
}

/**
 * The fulfilment property as a billing flow subject. Its steps (`x:checkout`, `x:pay`, `x:return`,
 * `x:expire`, `x:restart`) make sessions through the API, pay them through the customer surface
 * (`sim.customer.completeCheckout`), send the customer to the client's success page, and redeploy
 * the client from its factory (its `env.store` kept). Each `orders` call is traced with the
 * session's state at that moment, counted unpaid while the client handles an event showing the
 * session unpaid (it acts on that) (`harness.fulfil.fulfil`, `harness.fulfil.reverse`); at the end
 * each session's state is traced (`harness.fulfil.session`) for the fulfilment checker.
 *
 * @example
 * const report = await runFlow(program, fulfilmentSubject(referenceFulfilmentClient, 'checkFulfilment'))
 */
export function fulfilmentSubject(
  factory: FulfilmentClientFactory,
  api: string,
  options: FulfilmentSubjectOptions = {},
): FlowSubject {
  const payments = options.payments ?? fulfilmentPayments
  const sessions: string[] = []
  const asyncFailed = new Set<string>()
  // What could tell the client a session is paid: events saying so (by event id), a success page shown paid.
  const paidEvents = new Map<string, string>()
  const shownPaid = new Set<string>()
  // Sessions an event being handled right now says are unpaid: fulfilling one then acts on that.
  const toldUnpaid = new Map<string, number>()
  let run: FlowRun | undefined
  let env: FulfilmentEnv | undefined
  let current: FulfilmentClient | undefined
  let restarts = 0
  const scope = (r: FlowRun) => ({ account: r.sim.platform.id, mode: 'test' as const })
  const sessionOf = (r: FlowRun, id: string): (Json & { status?: unknown; payment_status?: unknown }) | undefined =>
    r.sim.service.engine.resource('checkout.session').get(scope(r), id)
  const order = (kind: 'harness.fulfil.fulfil' | 'harness.fulfil.reverse') => (session: string, source?: string) => {
    if (run === undefined) return
    const state = sessionOf(run, String(session))
    const shown = (toldUnpaid.get(String(session)) ?? 0) > 0
    run.sim.service.kernel.trace.append(kind, {
      session: String(session),
      source: source ?? null,
      status: state?.status ?? null,
      payment_status: state?.payment_status ?? null,
      paid: state !== undefined && sessionPaid({ status: state.status, payment_status: state.payment_status }) && !shown,
      shown_unpaid: shown,
    })
  }
  // The customer's browser lands on the success page (the client's own handler, reading its URL).
  async function visit(ctx: FlowActionContext, id: string): Promise<string> {
    const url = FULFILMENT_SUCCESS_URL.replace('{CHECKOUT_SESSION_ID}', id)
    const state = run === undefined ? undefined : sessionOf(run, id)
    const paid = state !== undefined && sessionPaid({ status: state.status, payment_status: state.payment_status })
    let status = 500
    try {
      const res = await (current as FulfilmentClient).successPage(url)
      status = res instanceof Response ? res.status : 500
    } catch {
      // A page that throws shows the customer an error: 500.
    }
    if (paid && status >= 200 && status < 300) shownPaid.add(id)
    ctx.sim.service.kernel.trace.append('harness.fulfil.return', { session: id, status, paid })
    return `success page ${status}`
  }
  async function deliver(request: Request): Promise<Response> {
    let unpaid: string | undefined
    try {
      const object = (JSON.parse(await request.clone().text()) as { data?: { object?: Json } }).data?.object
      if (object !== undefined && !sessionPaid({ status: object.status, payment_status: object.payment_status }))
        unpaid = String(object.id)
    } catch {
      // Not an event (a forgery's body): it tells nothing.
    }
    if (unpaid !== undefined) toldUnpaid.set(unpaid, (toldUnpaid.get(unpaid) ?? 0) + 1)
    try {
      return await (current as FulfilmentClient).handler(request)
    } finally {
      if (unpaid !== undefined) toldUnpaid.set(unpaid, (toldUnpaid.get(unpaid) ?? 1) - 1)
    }
  }
  const actions: Record<string, FlowAction> = {
    async 'x:checkout'(ctx, flowStep) {
      const step = fieldsOf(flowStep)
      const customer = Number(step.customer)
      const plan = Number(step.plan) % ctx.setup.prices.length
      const who: Record<string, string> =
        customer < 0 ? {} : { customer: ctx.setup.customers[customer % ctx.setup.customers.length] as string }
      const lines: Record<string, string> =
        step.mode === 'subscription'
          ? { 'line_items[0][price]': ctx.setup.prices[plan] as string }
          : {
              'line_items[0][price_data][currency]': 'usd',
              'line_items[0][price_data][unit_amount]': String(1500 * (plan + 1)),
              'line_items[0][price_data][product_data][name]': `Order item ${plan}`,
            }
      const made = await ctx.api('POST', '/v1/checkout/sessions', {
        mode: String(step.mode),
        success_url: FULFILMENT_SUCCESS_URL,
        ...lines,
        'line_items[0][quantity]': '1',
        ...who,
      })
      if (typeof made.body.id !== 'string') return `checkout refused (${made.status})`
      sessions.push(made.body.id)
      return made.body.id
    },
    async 'x:pay'(ctx, flowStep) {
      const step = fieldsOf(flowStep)
      const id = pick(sessions, step.session)
      if (id === undefined) return 'no session'
      const payment = payments[Number(step.payment) % payments.length] as FulfilmentPayment
      const how = `${payment.paymentMethod}${payment.authentication === undefined ? '' : ` 3DS ${payment.authentication}`}`
      try {
        await ctx.sim.customer.completeCheckout(id, {
          paymentMethod: payment.paymentMethod,
          ...(payment.authentication === undefined ? {} : { authentication: payment.authentication }),
        })
      } catch (error) {
        return `${id} with ${how}: refused (${error instanceof Error ? error.message : String(error)})`
      }
      if (step.returns !== true) return `${id} with ${how}`
      return `${id} with ${how}, ${await visit(ctx, id)}`
    },
    async 'x:return'(ctx, flowStep) {
      const step = fieldsOf(flowStep)
      const id = pick(sessions, step.session)
      return id === undefined ? 'no session' : `${id}: ${await visit(ctx, id)}`
    },
    async 'x:expire'(ctx, flowStep) {
      const step = fieldsOf(flowStep)
      const id = pick(sessions, step.session)
      if (id === undefined) return 'no session'
      const done = await ctx.api('POST', `/v1/checkout/sessions/${id}/expire`)
      return `${id}: ${done.status === 200 ? 'expired' : `refused (${done.status})`}`
    },
    async 'x:restart'(ctx) {
      if (env === undefined) return 'no client'
      restarts += 1
      ctx.sim.service.kernel.trace.append('harness.restart', { subject: 'fulfilment', reason: 'deploy', restart: restarts })
      current = validClient(factory(env), api)
      return undefined
    },
  }
  return {
    eventTypes: FULFILMENT_EVENT_TYPES,
    actions,
    start(r) {
      run = r
      r.sim.service.events.subscribe((e) => {
        if (e.objectId === undefined) return
        if (e.type === 'checkout.session.async_payment_failed') asyncFailed.add(e.objectId)
        const object = (e.body.data as { object?: Json } | undefined)?.object
        const saysPaid =
          e.type === 'checkout.session.async_payment_succeeded' ||
          (e.type === 'checkout.session.completed' &&
            object !== undefined &&
            sessionPaid({ status: object.status, payment_status: object.payment_status }))
        if (saysPaid) paidEvents.set(e.id, e.objectId)
      })
      env = {
        ...r.env,
        store: createDurableStore(),
        orders: { fulfil: order('harness.fulfil.fulfil'), reverse: order('harness.fulfil.reverse') },
      }
      current = validClient(factory(env), api)
      // A redeploy keeps the endpoint: deliveries reach whichever instance is current.
      return { handler: (request: Request) => deliver(request) }
    },
    checkpoint(r, final) {
      if (!final) return
      for (const id of sessions) {
        const s = sessionOf(r, id)
        r.sim.service.kernel.trace.append('harness.fulfil.session', {
          id,
          mode: s?.mode ?? null,
          status: s?.status ?? null,
          payment_status: s?.payment_status ?? null,
          async_failed: asyncFailed.has(id),
          known: shownPaid.has(id) || [...paidEvents].some(([event, session]) => session === id && r.acked.has(event)),
        })
      }
    },
    check: (entries) => checkFulfilmentTrace(entries, options),
  }
}
