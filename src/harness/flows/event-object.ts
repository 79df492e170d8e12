/**
 * The kind of object an event type is about: `checkout.session`, `subscription`, else the type's
 * first part (`invoice`, `payment_intent`, `charge`, ...).
 *
 * @example
 * eventObjectKind('customer.subscription.updated') // 'subscription'
 */
export function eventObjectKind(type: string): string {
  if (type.startsWith('checkout.session.')) return 'checkout.session'
  if (type.startsWith('customer.subscription.')) return 'subscription'
  return type.split('.')[0] ?? ''
}

/**
 * The prefix of every event type about the object a `type` event is about.
 *
 * @example
 * objectTypes('customer.subscription.updated') // 'customer.subscription.'
 */
export function objectTypes(type: string): string {
  const kind = eventObjectKind(type)
  return kind === 'subscription' ? 'customer.subscription.' : `${kind}.`
}
