import type { Engine } from '../engine/engine.js'
import type { Json } from '../engine/list.js'
import type { Scope } from '../mode.js'

/** The provider's host of 3-D Secure redirects; serve rewrites it to its own authentication page. */
export const AUTHENTICATE_REDIRECT_BASE = 'https://hooks.stripe.com/redirect/authenticate/'

/**
 * When the customer confirmed a payment or setup intent with a `return_url` and the card asks for
 * 3-D Secure, the provider answers a `redirect_to_url` action instead of `use_stripe_sdk`: the customer's browser goes to the
 * issuer's page, then back to `return_url`. The intent keeps the action, so every read shows it.
 *
 * @example
 * withReturnUrl(engine, scope, pi, 'https://shop.example/done').next_action
 * // { type: 'redirect_to_url', redirect_to_url: { return_url: 'https://shop.example/done', url: 'https://hooks.stripe.com/redirect/authenticate/src_…?payment_intent=pi_…' } }
 */
export function withReturnUrl(engine: Engine, scope: Scope, answer: unknown, returnUrl: unknown): unknown {
  const p = answer as Json
  if (typeof returnUrl !== 'string' || p?.status !== 'requires_action') return answer
  // A setup intent waiting on microdeposits has no challenge to redirect to.
  if ((p.next_action as { type?: unknown } | null)?.type !== 'use_stripe_sdk') return answer
  const id = String(p.id)
  const kind = id.startsWith('seti_') ? 'setup_intent' : 'payment_intent'
  const url = `${AUTHENTICATE_REDIRECT_BASE}src_${id.slice(id.indexOf('_') + 1)}?${kind}=${id}`
  return engine.resource(kind).put(scope, id, {
    next_action: { type: 'redirect_to_url', redirect_to_url: { return_url: returnUrl, url } },
  })
}
