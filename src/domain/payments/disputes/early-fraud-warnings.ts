import type { Engine } from '../../engine/engine.js'
import type { Json } from '../../engine/list.js'
import { NO_ORIGIN, type Origin } from '../../events/emit-snapshot.js'
import type { Kernel } from '../../kernel-parts.js'
import type { Scope } from '../../mode.js'
import { cardOf } from '../payment-method.js'

/** The store of early fraud warnings (the provider's object value). */
const OBJECT = 'radar.early_fraud_warning'

/**
 * Early fraud warnings over the engine's `radar.early_fraud_warning` store. A captured payment with
 * the provider's early-fraud-warning test card draws one from the issuer later at the same virtual
 * instant (`await sim.settle()`), actionable (`radar.early_fraud_warning.created`); once the charge
 * is fully refunded there is nothing left to act on, and it turns `actionable: false`
 * (`radar.early_fraud_warning.updated`), as the provider does.
 *
 * @example
 * warnings.scheduleFor(scope, charge) // after the capture of a pm_card_createIssuerFraudRecord payment
 * warnings.refunded(scope, charge, origin) // after a refund of that charge
 */
export interface EarlyFraudWarnings {
  /** Raises a warning on the charge later at this instant when its card is the warning test card. */
  scheduleFor(scope: Scope, charge: Json): void
  /** Makes the charge's actionable warnings not actionable when the charge is now fully refunded. */
  refunded(scope: Scope, charge: Json, origin: Origin): void
}

export interface EarlyFraudWarningsOptions {
  readonly kernel: Kernel
  /** The engine (made after the ports, so read on use). */
  readonly engine: () => Engine
}

/** The fraud type a charge's test card gives its warning, if it draws one. */
function fraudTypeOf(charge: Json): string | undefined {
  const card = (charge.payment_method_details as { card?: Record<string, unknown> } | null | undefined)?.card
  return card === undefined ? undefined : cardOf({ id: charge.id, card }).earlyFraudWarning
}

/**
 * Builds the early fraud warnings area.
 *
 * @example
 * const warnings = createEarlyFraudWarnings({ kernel, engine: engineOf })
 */
export function createEarlyFraudWarnings(options: EarlyFraudWarningsOptions): EarlyFraudWarnings {
  const { kernel, engine } = options

  const raising = kernel.scheduler.define<{ account: string; mode: Scope['mode']; charge: string }>(
    'radar.early_fraud_warning.raise',
    ({ account, mode, charge }) => raise({ account, mode }, charge),
  )

  function raise(scope: Scope, chargeId: string): void {
    const e = engine()
    const charge = e.resource('charge').get(scope, chargeId)
    const fraudType = charge === undefined ? undefined : fraudTypeOf(charge)
    if (charge === undefined || fraudType === undefined) return
    // A charge refunded before the issuer spoke leaves nothing to act on.
    e.resource(OBJECT).create(scope, {}, NO_ORIGIN, {
      actionable: charge.refunded !== true,
      charge: charge.id,
      fraud_type: fraudType,
      payment_intent: charge.payment_intent ?? null,
    })
  }

  return {
    scheduleFor(scope, charge) {
      if (fraudTypeOf(charge) === undefined) return
      raising.at(kernel.clock.now, { account: scope.account, mode: scope.mode, charge: charge.id })
    },
    refunded(scope, charge, origin) {
      if (charge.refunded !== true || fraudTypeOf(charge) === undefined) return
      const r = engine().resource(OBJECT)
      for (const w of r.list(scope)) {
        if (w.charge === charge.id && w.actionable === true) r.set(scope, w.id, { actionable: false }, origin)
      }
    },
  }
}
