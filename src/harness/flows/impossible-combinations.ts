import { refuseArgument } from '../refuse-argument.js'

/** What the harness's attacker claims about an object in each state (see `forgeFlowDelivery`): the type it forges. */
function forgedType(type: string, state: string): boolean {
  switch (type) {
    case 'checkout.session.completed':
    case 'payment_intent.succeeded':
      return true
    case 'customer.subscription.deleted':
      return state === 'active' || state === 'trialing'
    case 'customer.subscription.updated':
      return state !== 'active' && state !== 'trialing'
    case 'invoice.payment_failed':
      return state === 'paid'
    case 'invoice.paid':
      return state !== 'paid'
    default:
      return false
  }
}

/**
 * Why a `type|state|fault|deploy` combination can never be produced by a flow run, or undefined
 * when nothing rules it out. The rules follow from how the run makes deliveries:
 *
 * - a forged delivery is made the moment it is sent, so it is never older than a redeploy;
 * - the attacker forges the opposite of the provider's state only: a `checkout.session.completed`
 *   (paid), a `payment_intent.succeeded` (any other object), a subscription deleted while it is
 *   active or trialing and reactivated (`customer.subscription.updated`) otherwise, a failure
 *   notice for a paid invoice and `invoice.paid` for an unpaid one;
 * - a `checkout.session.*` event's object is a session, whose state always has a payment status;
 *   any other object's state never does.
 *
 * @example
 * impossibleCombination('invoice.paid|paid|forged|none') // 'the attacker claims invoice.paid only of an unpaid invoice'
 */
export function impossibleCombination(key: string): string | undefined {
  if (typeof key !== 'string') refuseArgument('impossibleCombination', 'key', key, 'string')
  const [type = '', state = '', fault = '', deploy = ''] = key.split('|')
  if (fault === 'forged' && deploy === 'redeployed') return 'a forged delivery is made when it is sent, never before a redeploy'
  if (fault === 'forged' && !forgedType(type, state)) return `the attacker never claims ${type} of an object in state ${state}`
  if (type.startsWith('checkout.session.') !== state.includes('/'))
    return 'a checkout session has a payment status in its state, other objects never do'
  return undefined
}
