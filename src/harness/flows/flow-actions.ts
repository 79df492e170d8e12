import { headerNames } from '#kernel/index.js'
import type { Simulator } from '#simulator/index.js'
import type { FlowStep } from './flow-program.js'
import type { FlowSetup } from './flow-setup.js'
import { guardedActions } from './guarded-actions.js'

type Json = Record<string, unknown>

/** What a flow step acts with: the run's simulator, its setup and the subscriptions made so far. */
export interface FlowActionContext {
  readonly sim: Simulator
  readonly setup: FlowSetup
  /** Subscription ids in order of creation (`sub` of a step indexes it, wrapping around). */
  readonly subscriptions: string[]
  /**
   * Sends one API request as the business's back office does: retried through faults with one
   * idempotency key; `on.account` acts for a connected account (the `Stripe-Account` header).
   */
  api(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    fields?: Record<string, string>,
    on?: { readonly account?: string },
  ): Promise<{ status: number; body: Json }>
  /** Moves the run's clock, delivering what falls due on the way (a step that races the deliveries). */
  readonly advance?: (ms: number) => Promise<void>
  /** Redeploys the app under test (its memory lost, its durable store kept). */
  readonly redeploy?: () => void
}

/** Runs one step kind; returns a better label when it has one (a no-op says why). */
export type FlowAction = (ctx: FlowActionContext, step: FlowStep) => Promise<string | undefined>

const TRANSIENT = new Set([409, 429, 500, 502, 503])
const ATTEMPTS = 12

/**
 * The back office's request sender of a run: the platform's test key (acting for a connected
 * account when asked), an idempotency key per request, and retries through 409, 429, 5xx and network failures (the faults are aimed at the
 * client under test; the flow itself must happen).
 *
 * @example
 * const api = flowApi(sim, () => `k${n++}`)
 */
export function flowApi(sim: Simulator, nextKey: () => string): FlowActionContext['api'] {
  const key = sim.platform.secretKey.test
  const accountHeader = headerNames(sim.service.kernel.prefix).account
  return async (method, path, fields, on) => {
    const idempotency = nextKey()
    const acting = on?.account === undefined ? {} : { [accountHeader]: on.account }
    let last: { status: number; body: Json } = { status: 0, body: {} }
    for (let i = 0; i < ATTEMPTS; i++) {
      try {
        const res = await sim.fetch(`https://api.service.test${path}`, {
          method,
          headers: {
            Authorization: `Bearer ${key}`,
            ...acting,
            ...(method === 'POST' ? { 'Content-Type': 'application/x-www-form-urlencoded', 'Idempotency-Key': idempotency } : {}),
          },
          ...(method === 'POST' ? { body: new URLSearchParams(fields ?? {}).toString() } : {}),
        })
        last = { status: res.status, body: (await res.json()) as Json }
        if (!TRANSIENT.has(res.status)) return last
      } catch {
        // An indeterminate answer: the same idempotency key gets the committed result.
      }
    }
    return last
  }
}

/** The subscription a step's number names, wrapping around: -1 is the newest, -2 the one before. */
function subOf(ctx: FlowActionContext, n: number): string | undefined {
  const count = ctx.subscriptions.length
  if (count === 0) return undefined
  return ctx.subscriptions[((n % count) + count) % count]
}

async function firstItem(ctx: FlowActionContext, id: string): Promise<string | undefined> {
  const got = await ctx.api('GET', `/v1/subscriptions/${id}`)
  const items = (got.body.items as { data?: Json[] } | undefined)?.data ?? []
  const item = items[0]?.id
  return typeof item === 'string' ? item : undefined
}

/**
 * Attaches a test card token to the customer and makes it the default for invoices (what the next
 * charge of every subscription of the customer uses).
 *
 * @example
 * await setDefaultCard(ctx, 'cus_123', 'pm_card_visa')
 */
export async function setDefaultCard(ctx: FlowActionContext, customer: string, card: string): Promise<void> {
  const pm = await ctx.api('POST', `/v1/payment_methods/${card}/attach`, { customer })
  if (typeof pm.body.id === 'string')
    await ctx.api('POST', `/v1/customers/${customer}`, { 'invoice_settings[default_payment_method]': pm.body.id })
}

/**
 * The setup's customer a step names by number (wrapping around).
 *
 * @example
 * customerOf(ctx, 0) // 'cus_...'
 */
export function customerOf(ctx: FlowActionContext, n: number): string {
  return ctx.setup.customers[n % ctx.setup.customers.length] as string
}

/**
 * The built-in actions of billing flows, by step kind, all through the public API.
 *
 * @example
 * await flowActions.subscribe(ctx, { kind: 'subscribe', customer: 0, plan: 1, quantity: 2, trialDays: 0 })
 */
export const flowActions: Readonly<Record<string, FlowAction>> = guardedActions('flowActions', {
  async subscribe(ctx, step) {
    if (step.kind !== 'subscribe') return undefined
    const price = ctx.setup.prices[step.plan % ctx.setup.prices.length] as string
    const made = await ctx.api('POST', '/v1/subscriptions', {
      customer: customerOf(ctx, step.customer),
      'items[0][price]': price,
      'items[0][quantity]': String(step.quantity),
      ...(step.trialDays > 0 ? { trial_period_days: String(step.trialDays) } : {}),
    })
    if (typeof made.body.id !== 'string') return `subscribe refused (${made.status})`
    ctx.subscriptions.push(made.body.id)
    return undefined
  },
  async change_plan(ctx, step) {
    if (step.kind !== 'change_plan') return undefined
    const id = subOf(ctx, step.sub)
    const item = id === undefined ? undefined : await firstItem(ctx, id)
    if (id === undefined || item === undefined) return 'no subscription to change'
    const price = ctx.setup.prices[step.plan % ctx.setup.prices.length] as string
    await ctx.api('POST', `/v1/subscriptions/${id}`, { 'items[0][id]': item, 'items[0][price]': price })
    return undefined
  },
  async change_quantity(ctx, step) {
    if (step.kind !== 'change_quantity') return undefined
    const id = subOf(ctx, step.sub)
    const item = id === undefined ? undefined : await firstItem(ctx, id)
    if (id === undefined || item === undefined) return 'no subscription to change'
    await ctx.api('POST', `/v1/subscriptions/${id}`, { 'items[0][id]': item, 'items[0][quantity]': String(step.quantity) })
    return undefined
  },
  async end_trial(ctx, step) {
    if (step.kind !== 'end_trial') return undefined
    const id = subOf(ctx, step.sub)
    if (id === undefined) return 'no subscription'
    await ctx.api('POST', `/v1/subscriptions/${id}`, { trial_end: 'now' })
    return undefined
  },
  async fail_card(ctx, step) {
    if (step.kind !== 'fail_card') return undefined
    await setDefaultCard(ctx, customerOf(ctx, step.customer), 'pm_card_chargeCustomerFail')
    return undefined
  },
  async recover(ctx, step) {
    if (step.kind !== 'recover') return undefined
    const customer = customerOf(ctx, step.customer)
    await setDefaultCard(ctx, customer, 'pm_card_visa')
    // Written-off invoices too: a customer who comes back pays what was given up on.
    for (const status of ['open', 'uncollectible']) {
      const unpaid = await ctx.api('GET', `/v1/invoices?customer=${customer}&status=${status}&limit=100`)
      for (const inv of ((unpaid.body.data as Json[] | undefined) ?? []).slice().reverse()) {
        await ctx.api('POST', `/v1/invoices/${String(inv.id)}/pay`)
      }
    }
    return undefined
  },
  async cancel(ctx, step) {
    if (step.kind !== 'cancel') return undefined
    const id = subOf(ctx, step.sub)
    if (id === undefined) return 'no subscription'
    if (step.atPeriodEnd) await ctx.api('POST', `/v1/subscriptions/${id}`, { cancel_at_period_end: 'true' })
    else await ctx.api('DELETE', `/v1/subscriptions/${id}`)
    return undefined
  },
  async resume(ctx, step) {
    if (step.kind !== 'resume') return undefined
    const id = subOf(ctx, step.sub)
    if (id === undefined) return 'no subscription'
    await ctx.api('POST', `/v1/subscriptions/${id}`, { cancel_at_period_end: 'false' })
    return undefined
  },
})
