import { fromPlain, toPlain } from '#kernel/plain.js'
import type { EventStore } from '../events/event-store.js'
import type { Kernel } from '../kernel.js'
import { cardFee } from '../ledger/currencies.js'
import type { Ledger } from '../ledger/ledger.js'
import type { Scope } from '../mode.js'
import { createScopedStore } from '../scoped-store/scoped-store.js'
import { emitSnapshot, type Origin } from '../v1-events/emit.js'
import { type Charge, chargeJson } from './charge.js'
import { type CardOutcome, needsAuthentication, type PaymentMethod } from './payment-method.js'
import type { PaymentMethods } from './payment-methods.js'

export interface ChargeAttempt {
  readonly amount: number
  readonly currency: string
  readonly customer: string | null
  readonly paymentMethod: PaymentMethod
  readonly paymentIntent: string | null
  readonly description: string | null
  readonly metadata: Record<string, string>
  /** False to only authorise (manual capture): no money moves until `capture`. */
  readonly capture: boolean
  /** True once the customer completed 3-D Secure for this payment. */
  readonly authenticated?: boolean
  /** The customer is not present, so a card that asks for authentication cannot get it. */
  readonly offSession?: boolean
}

/** How an off-session payment with a card that asks for authentication ends. */
export const AUTHENTICATION_REQUIRED: CardOutcome = {
  kind: 'decline',
  code: 'authentication_required',
  declineCode: 'authentication_required',
  message: 'Your card was declined. This transaction requires authentication.',
}

/**
 * Charges: the card attempt behind payment intents and off-session payments. A successful,
 * captured charge posts one balance transaction (amount, the card fee, net) to the ledger; a declined
 * one moves no money. Emits `charge.created` (named by the spec) then the provider's
 * `charge.succeeded` or `charge.failed`, and `charge.captured` on a later capture.
 *
 * @example
 * const ch = charges.attempt(scope, { amount: 2000, currency: 'usd', paymentMethod: pm, capture: true, ... }, origin)
 * ch.status // 'succeeded' for pm_card_visa, 'failed' for pm_card_chargeDeclined
 */
export interface Charges {
  attempt(scope: Scope, input: ChargeAttempt, origin: Origin): Charge
  capture(scope: Scope, id: string, amount: number, origin: Origin): Charge
  /**
   * Refunds `amount` of a captured charge: raises `amount_refunded`, posts a `refund` balance
   * transaction (money out at once) and emits `charge.refunded`. The caller checks the amount
   * first ({@link refundableAmount}); this only moves money. Returns the balance transaction id.
   */
  refund(scope: Scope, id: string, amount: number, refundId: string, origin: Origin): string
  get(scope: Scope, id: string): Charge | undefined
  list(scope: Scope): Charge[]
}

export function createCharges(
  kernel: Kernel,
  events: EventStore,
  ledger: Ledger,
  paymentMethods?: Pick<PaymentMethods, 'get'>,
): Charges {
  const store = createScopedStore<Charge>()
  // A charge holds its payment method (the live one, which attach and detach change): saved by id
  // and linked again on load, after the payment methods (registered first).
  kernel.state.register('charges', {
    save() {
      const out: Record<string, unknown[]> = {}
      for (const [k, list] of Object.entries(store.save()))
        out[k] = list.map((c) => ({ ...c, paymentMethod: c.paymentMethod.id }))
      return toPlain(out)
    },
    load(data) {
      const saved = fromPlain<Record<string, (Omit<Charge, 'paymentMethod'> & { paymentMethod: string })[]>>(data)
      const out: Record<string, Charge[]> = {}
      for (const [k, list] of Object.entries(saved)) {
        out[k] = list.map((c) => {
          const pm = paymentMethods?.get({ account: c.account, mode: c.mode }, c.paymentMethod)
          if (pm === undefined)
            throw new Error(`snapshot: charge ${c.id} names payment method ${c.paymentMethod}, which is not in the snapshot`)
          return { ...c, amountRefunded: c.amountRefunded ?? 0, paymentMethod: pm }
        })
      }
      store.load(out)
    },
  })

  function post(scope: Scope, c: Charge, amount: number): void {
    const txn = ledger.post({
      account: scope.account,
      mode: scope.mode,
      currency: c.currency,
      amount,
      fee: cardFee(amount, c.currency),
      type: 'charge',
      reportingCategory: 'charge',
      source: c.id,
      description: c.description,
      ...(c.paymentMethod.bypassPending === true ? { availableAfter: 0 } : {}),
    })
    c.balanceTransaction = txn.id
  }

  return {
    attempt(scope, input, origin) {
      // Reached without authentication only when the customer is away (off-session): the issuer declines.
      const unauthenticated =
        input.authenticated !== true && needsAuthentication(input.paymentMethod, { offSession: input.offSession ?? true })
      const outcome = unauthenticated ? AUTHENTICATION_REQUIRED : input.paymentMethod.outcome
      const ok = outcome.kind === 'succeed'
      const c: Charge = {
        id: kernel.ids.next('ch', 24),
        account: scope.account,
        mode: scope.mode,
        created: kernel.clock.now,
        amount: input.amount,
        currency: input.currency,
        customer: input.customer,
        paymentIntent: input.paymentIntent,
        paymentMethod: input.paymentMethod,
        description: input.description,
        metadata: { ...input.metadata },
        status: ok ? 'succeeded' : 'failed',
        captured: false,
        amountCaptured: 0,
        amountRefunded: 0,
        balanceTransaction: null,
        failureCode: outcome.kind === 'decline' ? outcome.code : null,
        failureMessage: outcome.kind === 'decline' ? outcome.message : null,
        declineCode: outcome.kind === 'decline' ? outcome.declineCode : null,
      }
      store.add(scope, c)
      if (ok && input.capture) {
        c.captured = true
        c.amountCaptured = c.amount
        post(scope, c, c.amount)
      }
      emitSnapshot(events, 'charge.created', scope, chargeJson(c), origin)
      emitSnapshot(events, ok ? 'charge.succeeded' : 'charge.failed', scope, chargeJson(c), origin)
      kernel.trace.append('charge.attempted', { id: c.id, account: scope.account, mode: scope.mode, status: c.status })
      return c
    },
    capture(scope, id, amount, origin) {
      const c = store.get(scope, id)
      if (c === undefined || c.status !== 'succeeded' || c.captured) {
        throw new Error(`charges.capture: ${id} is not an uncaptured successful charge`)
      }
      c.captured = true
      c.amountCaptured = amount
      post(scope, c, amount)
      emitSnapshot(events, 'charge.captured', scope, chargeJson(c), origin, {
        amount_captured: 0,
        captured: false,
        balance_transaction: null,
      })
      return c
    },
    refund(scope, id, amount, refundId, origin) {
      const c = store.get(scope, id)
      if (c === undefined || refundableAmount(c) < amount) {
        throw new Error(`charges.refund: ${id} cannot refund ${amount}`)
      }
      const before = { amount_refunded: c.amountRefunded, refunded: false }
      c.amountRefunded += amount
      const txn = ledger.post({
        account: scope.account,
        mode: scope.mode,
        currency: c.currency,
        amount: -amount,
        type: 'refund',
        reportingCategory: 'refund',
        source: refundId,
        description: 'REFUND FOR CHARGE',
        availableAfter: 0,
      })
      emitSnapshot(events, 'charge.refunded', scope, chargeJson(c), origin, before)
      kernel.trace.append('charge.refunded', { id: c.id, account: scope.account, mode: scope.mode, amount, refund: refundId })
      return txn.id
    },
    get: (scope, id) => store.get(scope, id),
    list: (scope) => store.list(scope),
  }
}

/**
 * What is left to refund on a charge: its captured amount less its refunds (0 for a failed or
 * uncaptured charge).
 *
 * @example
 * refundableAmount(charge) // 2000 for a captured 20.00 charge with no refunds
 */
export function refundableAmount(c: Charge): number {
  if (c.status !== 'succeeded' || !c.captured) return 0
  return c.amountCaptured - c.amountRefunded
}
