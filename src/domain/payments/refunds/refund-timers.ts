import type { Engine } from '../../engine/engine.js'
import type { Json } from '../../engine/list.js'
import { NO_ORIGIN } from '../../events/emit-snapshot.js'
import type { Kernel } from '../../kernel-parts.js'
import type { Scope } from '../../mode.js'
import type { Charges } from '../charges.js'
import { endWaiting } from './refund-waiting.js'

/**
 * How a refund moves on by itself: a `pending` one `succeed`s (the bank returned the money), a
 * `succeeded` one of the refund-failure test card `fail`s, a `requires_action` one nobody answered
 * `expire`s (canceled, its money back).
 */
export type RefundStep = 'succeed' | 'fail' | 'expire'

/** The status a refund must still have for its step to apply; a refund that moved meanwhile is left. */
const FROM: Readonly<Record<RefundStep, string>> = { succeed: 'pending', fail: 'succeeded', expire: 'requires_action' }

/** Why a refund of the refund-failure test card fails: its card can no longer take money back. */
export const REFUND_FAILURE_REASON = 'expired_or_canceled_card'

/** Work that refunds leave on the clock. */
export interface RefundTimers {
  /** `delay` ms from now, the refund takes `step` if it still has the status the step starts from. */
  later(scope: Scope, id: string, delay: number, step: RefundStep): void
}

type Args = { account: string; mode: Scope['mode']; id: string; step: RefundStep }

/**
 * Builds the refunds' timers on the kernel's due-time queue (tasks are data, so snapshots carry
 * them). Each step emits what the provider emits for a refund that changed by itself:
 * `refund.updated` and `charge.refund.updated` (and `refund.failed` for a failure), with the
 * refund as it is now in its charge's `refunds` list. A failure gives the money back as a
 * `refund_failure` balance transaction (`failure_balance_transaction`), and the charge's
 * `amount_refunded` falls.
 *
 * @example
 * const timers = createRefundTimers(kernel, () => engine, charges)
 * timers.later(scope, 're_1', 0, 'fail') // later at this instant, once the clock's work runs
 */
export function createRefundTimers(
  kernel: Kernel,
  engine: () => Engine,
  charges: Pick<Charges, 'unrefund' | 'showRefund'>,
): RefundTimers {
  const step = kernel.scheduler.define<Args>('refund.step', ({ account, mode, id, step: which }) => {
    const scope = { account, mode }
    const e = engine()
    const refund = e.resource('refund').get(scope, id)
    if (refund === undefined || refund.status !== FROM[which]) return
    const moved =
      which === 'expire' ? endWaiting(e, charges, scope, refund, 'expire', NO_ORIGIN) : settle(e, charges, scope, refund, which)
    e.emit('charge.refund.updated', scope, moved, NO_ORIGIN)
    if (which === 'fail') e.emit('refund.failed', scope, moved, NO_ORIGIN)
  })
  return {
    later(scope, id, delay, which) {
      step.after(delay, { account: scope.account, mode: scope.mode, id, step: which })
    },
  }
}

/** A pending refund succeeds, or a succeeded one fails and its money comes back. */
function settle(
  engine: Engine,
  charges: Pick<Charges, 'unrefund' | 'showRefund'>,
  scope: Scope,
  refund: Json,
  which: 'succeed' | 'fail',
): Json {
  const r = engine.resource('refund')
  const chargeId = typeof refund.charge === 'string' ? refund.charge : undefined
  if (which === 'succeed') {
    const done = r.set(scope, refund.id, { status: 'succeeded' }, NO_ORIGIN)
    if (chargeId !== undefined) charges.showRefund(scope, chargeId, done)
    return done
  }
  const fields = { status: 'failed', failure_reason: REFUND_FAILURE_REASON }
  const back = chargeId === undefined ? null : charges.unrefund(scope, chargeId, { ...refund, ...fields })
  const failed = r.set(scope, refund.id, { ...fields, failure_balance_transaction: back }, NO_ORIGIN)
  if (chargeId !== undefined) charges.showRefund(scope, chargeId, failed)
  return failed
}
