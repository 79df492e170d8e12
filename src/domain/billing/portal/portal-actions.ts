import { type CustomerScope, scopeOf } from '../../customer-scope.js'
import type { Json } from '../../engine/list.js'
import { NO_ORIGIN } from '../../events/emit-snapshot.js'
import type { Scope } from '../../mode.js'
import type { Service } from '../../service.js'
import { resourceMissing } from '../../service-error.js'

/** How the customer cancels in the portal: at the period's end (default: the configuration's mode) or now. */
export interface PortalCancel {
  readonly atPeriodEnd?: boolean
}

/** The plan change the customer picks in the portal: another price, another quantity, or both. */
export interface PortalUpdate {
  readonly price?: string
  readonly quantity?: number
}

/**
 * What a customer can do in a billing portal session, within its configuration's features.
 *
 * @example
 * const portal = portalActions(service, session.id)
 * portal.cancelSubscription(sub.id, { atPeriodEnd: true }).cancel_at_period_end // true
 */
export interface PortalActions {
  /** Cancels a subscription of the session's customer (`subscription_cancel` must be enabled). */
  cancelSubscription(subscriptionId: string, input?: PortalCancel): Json
  /** Changes a subscription's price or quantity (`subscription_update` must be enabled and allow it). */
  updateSubscription(subscriptionId: string, input: PortalUpdate): Json
  /** Saves a new card as the customer's default (`payment_method_update` must be enabled). */
  updatePaymentMethod(paymentMethod: string): Json
}

type Feature = Readonly<Record<string, unknown>> | undefined

/** A portal action the session's configuration does not offer: the page shows no such button. */
function notOffered(what: string, session: string): TypeError {
  return new TypeError(`customer.portal: the configuration of billing portal session '${session}' does not allow ${what}`)
}

/**
 * The customer's actions in a billing portal session: each checks the session's configuration and
 * that the subscription is the session customer's, then runs the operation the portal runs.
 *
 * @example
 * portalActions(service, 'bps_1').updatePaymentMethod('pm_card_mastercard') // the customer, its default card changed
 */
export function portalActions(service: Service, sessionId: string, where: CustomerScope = {}): PortalActions {
  const scope = scopeOf(service, where)
  const engine = service.engine
  const session = engine.find(scope, sessionId)
  if (session === undefined || session.object !== 'billing_portal.session') {
    throw resourceMissing('billing_portal.session', sessionId)
  }
  const customer = String(session.customer)
  const run = (operation: string, id: string, params: Record<string, unknown>): Json =>
    engine.run(operation, { scope, origin: NO_ORIGIN, path: { id }, params }) as Json
  const feature = (name: string): Feature => {
    const config = engine.find(scope, String(session.configuration))
    const features = (config?.features ?? {}) as Record<string, Feature>
    return features[name]
  }
  const subscriptionOf = (id: string): Json => subscription(scope, service, id, customer)
  return {
    cancelSubscription(id, input = {}) {
      const f = feature('subscription_cancel')
      if (f?.enabled !== true) throw notOffered('cancelling subscriptions', sessionId)
      subscriptionOf(id)
      const atPeriodEnd = input.atPeriodEnd ?? f.mode !== 'immediately'
      if (atPeriodEnd) return run('subscriptions.update', id, { cancel_at_period_end: true })
      return run('subscriptions.cancel', id, f.proration_behavior === 'create_prorations' ? { prorate: true } : {})
    },
    updateSubscription(id, input) {
      const f = feature('subscription_update')
      if (f?.enabled !== true) throw notOffered('changing subscriptions', sessionId)
      const allowed = (f.default_allowed_updates ?? []) as readonly string[]
      if (input.price !== undefined && !allowed.includes('price')) throw notOffered('changing the price', sessionId)
      if (input.quantity !== undefined && !allowed.includes('quantity')) throw notOffered('changing the quantity', sessionId)
      const products = (f.products ?? []) as readonly { prices?: readonly string[] }[]
      if (input.price !== undefined && products.length > 0 && !products.some((p) => p.prices?.includes(input.price as string))) {
        throw notOffered(`the price '${input.price}'`, sessionId)
      }
      const sub = subscriptionOf(id)
      const item = ((sub.items as { data?: readonly Json[] } | undefined)?.data ?? [])[0]
      if (item === undefined) throw resourceMissing('subscription_item', id)
      return run('subscriptions.update', id, {
        items: [
          {
            id: item.id,
            ...(input.price === undefined ? {} : { price: input.price }),
            ...(input.quantity === undefined ? {} : { quantity: input.quantity }),
          },
        ],
        proration_behavior: f.proration_behavior ?? 'none',
      })
    },
    updatePaymentMethod(paymentMethod) {
      if (feature('payment_method_update')?.enabled !== true) throw notOffered('updating the payment method', sessionId)
      const attached = run('paymentMethods.attach', paymentMethod, { customer })
      return run('customers.update', customer, { invoice_settings: { default_payment_method: attached.id } })
    },
  }
}

/** A subscription of the session's customer; another customer's is as unknown as a missing one. */
function subscription(scope: Scope, service: Service, id: string, customer: string): Json {
  const found = service.engine.find(scope, id)
  if (found === undefined || found.object !== 'subscription' || found.customer !== customer) {
    throw resourceMissing('subscription', id)
  }
  return found as Json
}
