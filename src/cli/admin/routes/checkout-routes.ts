import { z } from 'zod'
import { ServiceError } from '#domain/index.js'
import type { Simulator } from '#simulator/index.js'
import { fail, json } from '../admin-io.js'
import { type AdminRoute, adminRoute } from '../admin-route.js'
import { ERROR, ok } from '../openapi-components.js'

const id = z.string().min(1).max(255)

/** Runs one customer action, answering its refusal in the provider's envelope. */
async function acting(sim: Simulator, act: () => Promise<unknown>): Promise<Response> {
  try {
    const result = await act()
    await sim.settle()
    return json(200, result)
  } catch (error) {
    // A decline keeps the provider's 402 and codes, in the API's own envelope.
    if (error instanceof ServiceError) return json(error.status, error.toJSON())
    return fail(400, error instanceof Error ? error.message : String(error))
  }
}

const completeCheckout = adminRoute({
  method: 'POST',
  path: '/customer/checkout/{id}/complete',
  summary: "Complete a checkout session as the customer's browser would (sim.customer.completeCheckout)",
  description:
    "Pays (payment mode), subscribes (subscription mode) or saves the payment method (setup mode) with a test payment method, then emits checkout.session.completed; work due at that instant runs before the answer. A declining card answers the provider's 402 card_error and the session stays open; a session that is not open answers 400.",
  body: z.strictObject({
    payment_method: z.string().min(1).max(255).optional().meta({
      description: 'A test token (pm_card_visa, pm_card_chargeDeclined, pm_usBankAccount) or a pm_ id; default pm_card_visa',
    }),
    email: z.string().max(512).optional(),
    name: z.string().max(255).optional(),
    authentication: z
      .enum(['succeed', 'fail'])
      .optional()
      .meta({ description: 'How a 3-D Secure challenge ends; default succeed' }),
    account: id.optional().meta({ description: 'Default the platform' }),
    mode: z.enum(['test', 'live']).optional(),
  }),
  responses: {
    '200': ok('The completed checkout session', { type: 'object' }),
    '400': ERROR,
    '402': ERROR,
    '404': ERROR,
  },
  handler: ({ sim, body: b, path }) => {
    if (b.account !== undefined && sim.admin.account(b.account) === undefined)
      return fail(400, `account: no such account '${b.account}'`, 'account')
    return acting(sim, () =>
      sim.customer.completeCheckout(path.id ?? '', {
        ...(b.payment_method === undefined ? {} : { paymentMethod: b.payment_method }),
        ...(b.email === undefined ? {} : { email: b.email }),
        ...(b.name === undefined ? {} : { name: b.name }),
        ...(b.authentication === undefined ? {} : { authentication: b.authentication }),
        ...(b.account === undefined ? {} : { account: b.account }),
        ...(b.mode === undefined ? {} : { mode: b.mode }),
      }),
    )
  },
})

/**
 * The customer completing a checkout session over HTTP (the checkout page posts here).
 *
 * @example
 * checkoutRoutes.map((r) => r.path) // ['/customer/checkout/{id}/complete']
 */
export const checkoutRoutes: readonly AdminRoute[] = [completeCheckout]
