import { z } from 'zod'
import type { Simulator } from '#simulator/index.js'
import { fail, json } from '../admin-io.js'
import { type AdminRoute, adminRoute } from '../admin-route.js'
import { ERROR, ok } from '../openapi-components.js'

const id = z.string().min(1).max(255)
const where = {
  account: id.optional().meta({ description: 'Whose object it is; default the platform' }),
  mode: z.enum(['test', 'live']).optional().meta({ description: 'Default test' }),
}
/** Only the scope keys given, so an absent one takes the default. */
const scope = (b: { account?: string | undefined; mode?: 'test' | 'live' | undefined }) => ({
  ...(b.account === undefined ? {} : { account: b.account }),
  ...(b.mode === undefined ? {} : { mode: b.mode }),
})
const paymentMethod = id.meta({ description: 'A test token (pm_card_visa, pm_card_chargeDeclined...) or a payment method id' })
const OBJECT = { type: 'object' }
const WITH_ERROR = (name: string) => ({
  type: 'object',
  required: [name],
  properties: { [name]: OBJECT, error: { type: 'object', description: 'The card refusal, when the card declined' } },
})

/** Answers an action's result once the work it caused (events, deliveries) has run. */
async function settled(sim: Simulator, body: unknown): Promise<Response> {
  await sim.settle()
  return json(200, body)
}

const confirmBody = z.strictObject({
  client_secret: id,
  payment_method: paymentMethod.optional(),
  return_url: z.string().url().max(2048).optional().meta({ description: 'A 3-D Secure step then answers redirect_to_url' }),
  ...where,
})

const confirm = (kind: 'payment_intent' | 'setup_intent') =>
  adminRoute({
    method: 'POST',
    path: `/customer/${kind}s/confirm`,
    summary: `Confirm a ${kind.replace('_', ' ')} by its client secret, as the browser library does`,
    body: confirmBody,
    responses: { '200': ok('The intent, and the card refusal when it declined', WITH_ERROR(kind)), '400': ERROR },
    handler: ({ sim, body: b }) => {
      const input = {
        ...scope(b),
        ...(b.payment_method === undefined ? {} : { paymentMethod: b.payment_method }),
        ...(b.return_url === undefined ? {} : { returnUrl: b.return_url }),
      }
      const r =
        kind === 'payment_intent'
          ? sim.customer.confirmPaymentIntent(b.client_secret, input)
          : sim.customer.confirmSetupIntent(b.client_secret, input)
      return settled(sim, { [kind]: r.intent, ...(r.error === undefined ? {} : { error: r.error }) })
    },
  })

const authenticate = adminRoute({
  method: 'POST',
  path: '/customer/authenticate',
  summary: 'Complete or fail the 3-D Secure challenge of a payment intent or setup intent in requires_action',
  body: z.strictObject({
    payment_intent: id.optional(),
    setup_intent: id.optional().meta({ description: 'Instead of payment_intent: the setup intent whose challenge ends' }),
    outcome: z.enum(['complete', 'fail']),
    ...where,
  }),
  responses: { '200': ok('The intent after the challenge', OBJECT), '400': ERROR, '404': ERROR },
  handler: ({ sim, body: b }) => {
    const intent = b.payment_intent ?? b.setup_intent
    if (intent === undefined || (b.payment_intent !== undefined && b.setup_intent !== undefined))
      return fail(400, 'give one of payment_intent or setup_intent', 'payment_intent')
    return settled(sim, sim.customer.authenticate(intent, { outcome: b.outcome, ...scope(b) }))
  },
})

const payInvoice = adminRoute({
  method: 'POST',
  path: '/customer/invoices/pay',
  summary: 'Pay an open invoice on its hosted page',
  body: z.strictObject({ invoice: id, payment_method: paymentMethod, ...where }),
  responses: {
    '200': ok('The invoice, and the card refusal when it declined', WITH_ERROR('invoice')),
    '400': ERROR,
    '404': ERROR,
  },
  handler: ({ sim, body: b }) => {
    const r = sim.customer.payInvoice(b.invoice, { paymentMethod: b.payment_method, ...scope(b) })
    return settled(sim, { invoice: r.invoice, ...(r.error === undefined ? {} : { error: r.error }) })
  },
})

const portalCancel = adminRoute({
  method: 'POST',
  path: '/customer/portal/cancel_subscription',
  summary: "Cancel a subscription in a billing portal session (within its configuration's features)",
  body: z.strictObject({
    session: id,
    subscription: id,
    at_period_end: z.boolean().optional().meta({ description: "Default the configuration's cancellation mode" }),
    ...where,
  }),
  responses: { '200': ok('The subscription', OBJECT), '400': ERROR, '404': ERROR },
  handler: ({ sim, body: b }) =>
    settled(
      sim,
      sim.customer
        .portal(b.session, scope(b))
        .cancelSubscription(b.subscription, b.at_period_end === undefined ? {} : { atPeriodEnd: b.at_period_end }),
    ),
})

const portalUpdate = adminRoute({
  method: 'POST',
  path: '/customer/portal/update_subscription',
  summary: 'Change the price or quantity of a subscription in a billing portal session',
  body: z.strictObject({
    session: id,
    subscription: id,
    price: id.optional(),
    quantity: z.number().int().min(1).optional(),
    ...where,
  }),
  responses: { '200': ok('The subscription', OBJECT), '400': ERROR, '404': ERROR },
  handler: ({ sim, body: b }) =>
    settled(
      sim,
      sim.customer.portal(b.session, scope(b)).updateSubscription(b.subscription, {
        ...(b.price === undefined ? {} : { price: b.price }),
        ...(b.quantity === undefined ? {} : { quantity: b.quantity }),
      }),
    ),
})

const portalPaymentMethod = adminRoute({
  method: 'POST',
  path: '/customer/portal/update_payment_method',
  summary: "Save a new card as the customer's default in a billing portal session",
  body: z.strictObject({ session: id, payment_method: paymentMethod, ...where }),
  responses: { '200': ok('The customer', OBJECT), '400': ERROR, '404': ERROR },
  handler: ({ sim, body: b }) => settled(sim, sim.customer.portal(b.session, scope(b)).updatePaymentMethod(b.payment_method)),
})

/**
 * The customer's side over HTTP: what `sim.customer` does, for apps and browser pages driving serve.
 *
 * @example
 * await fetch(`${base}/__sim/customer/authenticate`, { method: 'POST', body: JSON.stringify({ payment_intent: 'pi_1', outcome: 'fail' }) })
 */
export const customerRoutes: readonly AdminRoute[] = [
  confirm('payment_intent'),
  confirm('setup_intent'),
  authenticate,
  payInvoice,
  portalCancel,
  portalUpdate,
  portalPaymentMethod,
]
