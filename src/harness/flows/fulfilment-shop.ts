import type { Json } from '#domain/index.js'
import { TextRequest } from '#http/index.js'
import { sessionPaid } from '../checkers/fulfilment-checker.js'
import { CausalRecorder } from '../rules/causal-recorder.js'
import { HarnessInputError } from '../validate-input.js'
import { deliveredEvent } from './delivered-event.js'
import type { FlowAction, FlowActionContext } from './flow-actions.js'
import type { FlowStep } from './flow-program.js'
import type { FlowRun } from './flow-run.js'
import { FULFILMENT_SUCCESS_URL, type FulfilmentPayment } from './fulfilment-steps.js'
import type { FulfilmentClient, FulfilmentClientFactory, FulfilmentEnv } from './fulfilment-subject.js'
import { RaceGate } from './race-gate.js'

type OrderKind = 'harness.fulfil.fulfil' | 'harness.fulfil.reverse'
/** Which starts first when the success page races the session's webhook. */
export type Race = 'page_first' | 'webhook_first'

/** A checkout session as the engine stores it, with the fields the property reads. */
type StoredSession = Json & { status?: unknown; payment_status?: unknown }

function validClient(made: unknown, api: string): FulfilmentClient {
  const c = made as Partial<FulfilmentClient> | undefined
  if (typeof c?.handler !== 'function' || typeof c.successPage !== 'function')
    throw new HarnessInputError(`${api}: fulfilment factory must return { handler, successPage }`)
  return c as FulfilmentClient
}

function paidState(state: StoredSession | undefined): boolean {
  return state !== undefined && sessionPaid({ status: state.status, payment_status: state.payment_status })
}

/**
 * The shop the fulfilment property runs: the sessions it made, the client deployed now, and what
 * could tell that client a session is paid. Its steps and the client's calls are traced for the
 * fulfilment checker.
 *
 * @example
 * const shop = new FulfilmentShop(referenceFulfilmentClient, 'checkFulfilment')
 * const receiver = shop.start(run)
 */
export class FulfilmentShop {
  readonly sessions: string[] = []
  private readonly asyncFailed = new Set<string>()
  // What could tell the client a session is paid: events saying so (by event id), a success page shown paid.
  private readonly paidEvents = new Map<string, string>()
  private readonly shownPaid = new Set<string>()
  // Success pages to open the moment the session's own webhook arrives, before or after its handler starts.
  private readonly races = new Map<string, { order: Race; visit?: Promise<string> }>()
  private readonly gate = new RaceGate()
  private run: FlowRun | undefined
  private env: FulfilmentEnv | undefined
  private current: FulfilmentClient | undefined
  // The instance serving a racing page: another process of the same deployment (a load balancer
  // sends the browser and the provider to different ones), made when a race first needs it.
  private web: FulfilmentClient | undefined
  private ctx: FlowActionContext | undefined

  constructor(
    private readonly factory: FulfilmentClientFactory,
    private readonly api: string,
  ) {}

  private sessionOf(r: FlowRun, id: string): StoredSession | undefined {
    return r.sim.service.engine.resource('checkout.session').get({ account: r.sim.platform.id, mode: 'test' }, id)
  }

  /** Records an `orders` call as the app's effect (with its causal context), and traces it with the session's state then. */
  private order(kind: OrderKind, session: string, source?: string): void {
    if (this.run === undefined) return
    const id = String(session)
    this.run.env.effects.record(kind === 'harness.fulfil.fulfil' ? 'order.fulfil' : 'order.reverse', id, {
      source: source ?? null,
    })
    const state = this.sessionOf(this.run, id)
    this.run.sim.service.kernel.trace.append(kind, {
      session: id,
      source: source ?? null,
      status: state?.status ?? null,
      payment_status: state?.payment_status ?? null,
      paid: paidState(state),
    })
  }

  /** The customer's browser lands on the success page (the client's own handler, reading its URL). */
  async visit(ctx: FlowActionContext, id: string, racing = false): Promise<string> {
    const url = FULFILMENT_SUCCESS_URL.replace('{CHECKOUT_SESSION_ID}', id)
    const paid = paidState(this.run === undefined ? undefined : this.sessionOf(this.run, id))
    let status = 500
    try {
      if (racing && this.web === undefined && this.env !== undefined) this.web = validClient(this.factory(this.env), this.api)
      const instance = (racing ? this.web : undefined) ?? (this.current as FulfilmentClient)
      // The page is its own context, even when a delivery's handling opened it (a race): what it reads is its own.
      const page = () => instance.successPage(url)
      const effects = this.run?.env.effects
      const res = await (effects instanceof CausalRecorder ? effects.elsewhere(page) : page())
      status = res instanceof Response ? res.status : 500
    } catch {
      // A page that throws shows the customer an error: 500.
    }
    if (paid && status >= 200 && status < 300) this.shownPaid.add(id)
    ctx.sim.service.kernel.trace.append('harness.fulfil.return', { session: id, status, paid })
    return `success page ${status}`
  }

  /** Hands a delivery to the client deployed now; the session's own webhook opens a racing page. */
  private async deliver(request: Request): Promise<Response> {
    let session: string | undefined
    try {
      // The receiver has parsed this body already: the same event, without a copy of the request.
      const object = deliveredEvent(await TextRequest.textOf(request))?.data?.object
      if (object?.object === 'checkout.session') session = String(object.id)
    } catch {
      // Not an event (a forgery's body): it opens no page.
    }
    const race = session === undefined ? undefined : this.races.get(session)
    const client = this.current as FulfilmentClient
    if (race === undefined || this.ctx === undefined) return await client.handler(request)
    const ctx = this.ctx
    if (race.order === 'page_first') {
      // The page is held at its first database access: this handler's first one lets it go on.
      if (this.gate.held) this.gate.follow()
      return await client.handler(request)
    }
    if (race.visit !== undefined) return await client.handler(request)
    // The handler leads: held at its first database access, the page opens then and lets it go on at its own.
    this.gate.lead(() => {
      this.gate.follow()
      race.visit = this.visit(ctx, session as string, true)
    })
    try {
      return await client.handler(request)
    } finally {
      this.gate.open()
    }
  }

  /** Notes the events that say a session is paid, or that its delayed payment failed. */
  private watchEvents(r: FlowRun): void {
    r.sim.service.events.subscribe((e) => {
      if (e.objectId === undefined) return
      if (e.type === 'checkout.session.async_payment_failed') this.asyncFailed.add(e.objectId)
      const object = (e.body.data as { object?: Json } | undefined)?.object
      const saysPaid =
        e.type === 'checkout.session.async_payment_succeeded' ||
        (e.type === 'checkout.session.completed' &&
          object !== undefined &&
          sessionPaid({ status: object.status, payment_status: object.payment_status }))
      if (saysPaid) this.paidEvents.set(e.id, e.objectId)
    })
  }

  /**
   * Deploys the client for run `r` (again on each redeploy: a new instance from the factory, the
   * run's `env.store` kept); its receiver hands each delivery to whichever instance is current.
   */
  start(r: FlowRun): { handler(request: Request): Promise<Response> } {
    if (this.run !== r) {
      this.run = r
      this.watchEvents(r)
    }
    this.env = {
      ...r.env,
      store: this.gate.wrap(r.env.store),
      orders: {
        fulfil: (session, source) => this.order('harness.fulfil.fulfil', session, source),
        reverse: (session, source) => this.order('harness.fulfil.reverse', session, source),
      },
    }
    this.current = validClient(this.factory(this.env), this.api)
    this.web = undefined
    // A redeploy keeps the endpoint: deliveries reach whichever instance is current.
    return { handler: (request: Request) => this.deliver(request) }
  }

  /**
   * `x:pay`'s success page raced against the session's webhook (`RaceGate`): the page opened at
   * once and held at its first database access until the session's webhook reaches its own
   * (`page_first`), or the webhook's handler held at its first until the page, opened then,
   * reaches its own (`webhook_first`); both then run interleaved. The racing page is served by a
   * second instance of the app (another process of the deployment, the same `env.store`), so a
   * lock or a claim kept in one instance's memory does not hold the other back. Without a webhook
   * within the step, the page goes on (or opens) at its end.
   */
  async race(ctx: FlowActionContext, id: string, order: Race, settleMs: number): Promise<string> {
    const race: { order: Race; visit?: Promise<string> } = { order }
    this.races.set(id, race)
    this.ctx = ctx
    if (order === 'page_first') {
      this.gate.lead()
      race.visit = this.visit(ctx, id, true).finally(() => {
        if (!this.gate.held) this.gate.open()
      })
    }
    await ctx.advance?.(settleMs)
    this.races.delete(id)
    this.gate.open()
    const raced = race.visit !== undefined
    const shown = await (race.visit ?? this.visit(ctx, id))
    return `${raced ? `${order.replace('_', ' ')}, ` : 'no webhook came, '}${shown}`
  }

  /** Traces each session's state at the end, and whether anything told the client it was paid. */
  traceSessions(r: FlowRun): void {
    for (const id of this.sessions) {
      const s = this.sessionOf(r, id)
      r.sim.service.kernel.trace.append('harness.fulfil.session', {
        id,
        mode: s?.mode ?? null,
        status: s?.status ?? null,
        payment_status: s?.payment_status ?? null,
        async_failed: this.asyncFailed.has(id),
        known: this.shownPaid.has(id) || [...this.paidEvents].some(([event, session]) => session === id && r.acked.has(event)),
      })
    }
  }

  /** The session a step's number picks among those made so far (wrapping around; -1 the newest, -2 the one before). */
  pick(n: unknown): string | undefined {
    const count = this.sessions.length
    return count === 0 ? undefined : this.sessions[((Number(n) % count) + count) % count]
  }
}

/** How long a racing `x:pay` waits for the session's webhook (the settle time of a step). */
const RACE_SETTLE_MS = 30_000

/** A step of this property's own kinds, as the data it is. */
const fieldsOf = (step: FlowStep) => step as Readonly<Record<string, unknown>>

/** `x:checkout`: a session through the API, for a plan's price or an ad-hoc one-off item. */
async function checkout(ctx: FlowActionContext, shop: FulfilmentShop, step: Readonly<Record<string, unknown>>) {
  const customer = Number(step.customer)
  const plan = Number(step.plan) % ctx.setup.prices.length
  const who: Record<string, string> =
    customer < 0 ? {} : { customer: ctx.setup.customers[customer % ctx.setup.customers.length] as string }
  // A trial: the checkout saves a card and charges nothing (`no_payment_required`).
  const trial: Record<string, string> =
    Number(step.trialDays ?? 0) > 0 ? { 'subscription_data[trial_period_days]': String(step.trialDays) } : {}
  const lines: Record<string, string> =
    step.mode === 'subscription'
      ? { 'line_items[0][price]': ctx.setup.prices[plan] as string, ...trial }
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
  shop.sessions.push(made.body.id)
  return made.body.id
}

/** `x:pay`: the customer pays a session on the checkout page, and with `returns` lands on the success page. */
async function pay(
  ctx: FlowActionContext,
  shop: FulfilmentShop,
  step: Readonly<Record<string, unknown>>,
  payments: readonly FulfilmentPayment[],
) {
  const id = shop.pick(step.session)
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
  if (step.returns === 'page_first' || step.returns === 'webhook_first')
    return `${id} with ${how}, ${await shop.race(ctx, id, step.returns, RACE_SETTLE_MS)}`
  if (step.returns !== true) return `${id} with ${how}`
  return `${id} with ${how}, ${await shop.visit(ctx, id)}`
}

/**
 * The actions of the fulfilment property's steps (`x:checkout`, `x:pay`, `x:return`, `x:expire`,
 * `x:restart`) on `shop`, paying with `payments`.
 *
 * @example
 * const actions = fulfilmentActions(shop, fulfilmentPayments)
 */
export function fulfilmentActions(shop: FulfilmentShop, payments: readonly FulfilmentPayment[]): Record<string, FlowAction> {
  return {
    'x:checkout': (ctx, step) => checkout(ctx, shop, fieldsOf(step)),
    'x:pay': (ctx, step) => pay(ctx, shop, fieldsOf(step), payments),
    async 'x:return'(ctx, step) {
      const id = shop.pick(fieldsOf(step).session)
      return id === undefined ? 'no session' : `${id}: ${await shop.visit(ctx, id)}`
    },
    async 'x:expire'(ctx, step) {
      const id = shop.pick(fieldsOf(step).session)
      if (id === undefined) return 'no session'
      const done = await ctx.api('POST', `/v1/checkout/sessions/${id}/expire`)
      return `${id}: ${done.status === 200 ? 'expired' : `refused (${done.status})`}`
    },
    async 'x:restart'(ctx) {
      if (ctx.redeploy === undefined) return 'no deployment'
      ctx.redeploy()
      return undefined
    },
  }
}
