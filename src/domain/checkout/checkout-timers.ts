import type { Engine } from '../engine/engine.js'
import { NO_ORIGIN } from '../events/emit-snapshot.js'
import type { Kernel } from '../kernel-parts.js'
import type { Scope } from '../mode.js'

/** Work a checkout session leaves on the clock: its expiry, and the outcome of a delayed payment. */
export interface CheckoutTimers {
  /** Expires the session at `expiresAt` (unix seconds) if it is still open then. */
  expireAt(scope: Scope, id: string, expiresAt: number): void
  /**
   * At `at` (virtual ms), reports how the delayed payment of a completed, unpaid session ended:
   * `checkout.session.async_payment_succeeded` (and `payment_status: 'paid'`) when its payment
   * intent succeeded, `checkout.session.async_payment_failed` when it failed.
   */
  settleAt(scope: Scope, id: string, at: number): void
}

type Args = { account: string; mode: Scope['mode']; id: string }

/**
 * Builds the checkout session timers on the kernel's due-time queue (tasks are data, so snapshots
 * carry them). A session completed or expired before its expiry is left alone.
 *
 * @example
 * const timers = createCheckoutTimers(kernel, () => engine)
 * timers.expireAt(scope, 'cs_test_1', created + 24 * 60 * 60)
 */
export function createCheckoutTimers(kernel: Kernel, engine: () => Engine): CheckoutTimers {
  const sessions = () => engine().resource('checkout.session')
  const expiry = kernel.scheduler.define<Args>('checkout.session.expire', ({ account, mode, id }) => {
    const scope = { account, mode }
    if (sessions().get(scope, id)?.status !== 'open') return
    engine().run('checkout.sessions.expire', { scope, origin: NO_ORIGIN, path: { id }, params: {} })
  })
  const settle = kernel.scheduler.define<Args>('checkout.session.async_payment', ({ account, mode, id }) => {
    const scope = { account, mode }
    const session = sessions().get(scope, id)
    if (session?.status !== 'complete' || session.payment_status !== 'unpaid') return
    const intent = engine().resource('payment_intent').get(scope, String(session.payment_intent))
    if (intent?.status === 'succeeded') {
      const paid = sessions().put(scope, id, { payment_status: 'paid' })
      engine().emit('checkout.session.async_payment_succeeded', scope, paid, NO_ORIGIN)
    } else if (intent?.status === 'requires_payment_method' || intent?.status === 'canceled') {
      engine().emit('checkout.session.async_payment_failed', scope, session, NO_ORIGIN)
    }
  })
  return {
    expireAt(scope, id, expiresAt) {
      expiry.at(expiresAt * 1000, { account: scope.account, mode: scope.mode, id })
    },
    settleAt(scope, id, at) {
      settle.at(at, { account: scope.account, mode: scope.mode, id })
    },
  }
}
