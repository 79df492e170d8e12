import type { Resource } from '../engine/resource.js'
import { emitSnapshot, type Origin } from '../events/emit-snapshot.js'
import type { EventStore } from '../events/event-store.js'
import type { Kernel } from '../kernel-parts.js'
import { cardFee } from '../ledger/currencies.js'
import type { Ledger } from '../ledger/ledger.js'
import type { Scope } from '../mode.js'
import { type Charge, chargeFields, refundableAmount } from './charge.js'
import type { Disputes } from './disputes/disputes.js'
import { type CardOutcome, cardOf, type PaymentMethod } from './payment-method.js'
import type { PaymentMethods } from './payment-methods.js'

export interface ChargeAttempt {
  readonly amount: number
  readonly currency: string
  readonly customer: string | null
  readonly paymentMethod: PaymentMethod
  readonly paymentIntent: string | null
  readonly description: string | null
  readonly metadata: Readonly<Record<string, string>>
  /** False to only authorise (manual capture): no money moves until `capture`. */
  readonly capture: boolean
  /** True once the customer completed 3-D Secure for this payment. */
  readonly authenticated?: boolean
  /** The customer is not present (the default), so a card that asks for authentication cannot get it. */
  readonly offSession?: boolean
  /** The authorisation may be raised later (`paymentIntents.incrementAuthorization`). */
  readonly incremental?: boolean
  /** `payment_method_details` of a payment method that is not a card (a bank debit). */
  readonly details?: Readonly<Record<string, unknown>>
  /** The provider's fee when it is not the card fee (a bank debit's). */
  readonly fee?: number
  /** How it ends when the card's outcome does not say (a bank debit's, from its test account). */
  readonly outcome?: CardOutcome
  /** Fields of the new charge the request set (`source`, `receipt_email`, `shipping`, ...). */
  readonly fields?: Readonly<Record<string, unknown>>
}

/** How an attempt ended, with the stored charge. */
export interface AttemptResult {
  readonly id: string
  readonly status: 'succeeded' | 'failed'
  readonly failureCode: string | null
  readonly failureMessage: string | null
  readonly declineCode: string | null
  readonly charge: Charge
}

/**
 * Charges over the engine's `charge` store: the card attempt behind payment intents and
 * off-session payments. A successful, captured charge posts one balance transaction (amount, the
 * card fee, net) to the ledger; a declined one moves no money. Emits `charge.created` (named by the
 * spec) then the provider's `charge.succeeded` or `charge.failed`, and `charge.captured` on a later
 * capture.
 *
 * @example
 * const r = charges.attempt(scope, { amount: 2000, currency: 'usd', paymentMethod: pm, capture: true, ... }, origin)
 * r.status // 'succeeded' for pm_card_visa, 'failed' for pm_card_chargeDeclined
 */
export interface Charges {
  attempt(scope: Scope, input: ChargeAttempt, origin: Origin): AttemptResult
  capture(scope: Scope, id: string, amount: number, origin: Origin): Charge
  /**
   * Refunds `amount` of a captured charge: raises `amount_refunded`, adds the refund to the
   * charge's `refunds` list, posts a `refund` balance transaction (money out at once) and emits
   * `charge.refunded`. The caller checks the amount first ({@link refundableAmount}); this only
   * moves money. `refund` is the new refund object; returns its balance transaction id.
   */
  refund(scope: Scope, id: string, amount: number, refund: Readonly<Record<string, unknown>>, origin: Origin): string
  /**
   * Releases the authorisation of an uncaptured charge (its payment intent canceled): the charge
   * is refunded whole with `refund` (no money moved, so no balance transaction) and emits
   * `charge.refunded`.
   */
  release(scope: Scope, id: string, refund: Readonly<Record<string, unknown>>, origin: Origin): void
  /**
   * Gives back a refund that did not go through (canceled or expired while it waited for the
   * customer): a `refund_failure` balance transaction returns the money, the charge's
   * `amount_refunded` falls and its `refunds` list shows `refund` as it is now. Returns the
   * transaction id.
   */
  unrefund(scope: Scope, id: string, refund: Readonly<Record<string, unknown>>): string
  /**
   * Releases what a partial capture left uncaptured: the charge is refunded that much with `refund`
   * (no money moved: it was never captured) and emits `charge.refunded`.
   */
  releaseRemainder(scope: Scope, id: string, refund: Readonly<Record<string, unknown>>, origin: Origin): void
  /** Shows a changed refund (its metadata) in its charge's `refunds` list; no event (the refund emits its own). */
  showRefund(scope: Scope, id: string, refund: Readonly<Record<string, unknown>>): void
  get(scope: Scope, id: string): Charge | undefined
  list(scope: Scope): Charge[]
}

export interface ChargesOptions {
  readonly kernel: Kernel
  readonly events: EventStore
  readonly ledger: Ledger
  /** The engine's `charge` resource (made after the ports, so read on use). */
  readonly resource: () => Resource
  readonly paymentMethods: Pick<PaymentMethods, 'outcome'>
  /** Opens the dispute a dispute test card's captured payment gets. */
  readonly disputes: Pick<Disputes, 'scheduleFor' | 'refunded'>
  /** What a captured charge moves beyond itself (a Connect payment's transfer and application fee), after its events. */
  readonly onCaptured?: (scope: Scope, charge: Charge, origin: Origin) => void
}

/**
 * Builds the charges area over the engine's `charge` store and the ledger.
 *
 * @example
 * const charges = createCharges({ kernel, events, ledger, resource: () => engine.resource('charge'), paymentMethods })
 */
export function createCharges(options: ChargesOptions): Charges {
  return new ChargeBook(options)
}

/**
 * The charges area's operations. A class: it is made per simulation (every fork), and its methods
 * on the prototype cost nothing per instance.
 */
class ChargeBook implements Charges {
  private readonly options: ChargesOptions

  constructor(options: ChargesOptions) {
    this.options = options
  }

  attempt(scope: Scope, input: ChargeAttempt, origin: Origin): AttemptResult {
    const { kernel, events, resource, paymentMethods, disputes, onCaptured } = this.options
    const authenticated = input.authenticated === true
    const outcome =
      input.outcome ??
      paymentMethods.outcome(scope, input.paymentMethod, {
        offSession: input.offSession ?? true,
        authenticated,
      })
    const ok = outcome.kind === 'succeed'
    const r = resource()
    // A payment by a method that is not a card (a bank debit, a bank transfer) is a `py_` payment at
    // the provider; its id takes the same draws as a `ch_` one, so nothing after it shifts.
    const id = input.details === undefined ? undefined : kernel.ids.next('py', 24)
    let c = createCharge(r, scope, input, outcome, authenticated, origin, id)
    if (ok && input.capture) {
      const txn = this.post(scope, c, c.amount as number, input.fee)
      c = r.put(scope, c.id, { amount_captured: c.amount, balance_transaction: txn, captured: true })
      disputes.scheduleFor(scope, c)
    }
    emitSnapshot(events, 'charge.created', scope, c, origin, undefined, true)
    emitSnapshot(events, ok ? 'charge.succeeded' : 'charge.failed', scope, c, origin, undefined, true)
    kernel.trace.append('charge.attempted', {
      id: c.id,
      account: scope.account,
      mode: scope.mode,
      status: ok ? 'succeeded' : 'failed',
    })
    if (ok && input.capture) onCaptured?.(scope, c, origin)
    const decline = outcome.kind === 'decline' ? outcome : undefined
    return {
      id: c.id,
      status: ok ? 'succeeded' : 'failed',
      failureCode: decline?.code ?? null,
      failureMessage: decline?.message ?? null,
      declineCode: decline?.declineCode ?? null,
      charge: c,
    }
  }

  capture(scope: Scope, id: string, amount: number, origin: Origin): Charge {
    const { events, resource, disputes, onCaptured } = this.options
    const r = resource()
    const c = r.get(scope, id)
    if (c === undefined || c.status !== 'succeeded' || c.captured === true) {
      throw new Error(`charges.capture: ${id} is not an uncaptured successful charge`)
    }
    const txn = this.post(scope, c, amount)
    const captured = r.put(scope, id, { amount_captured: amount, balance_transaction: txn, captured: true })
    disputes.scheduleFor(scope, captured)
    emitSnapshot(
      events,
      'charge.captured',
      scope,
      captured,
      origin,
      { amount_captured: 0, captured: false, balance_transaction: null },
      true,
    )
    onCaptured?.(scope, captured, origin)
    return captured
  }

  refund(scope: Scope, id: string, amount: number, refund: Readonly<Record<string, unknown>>, origin: Origin): string {
    const c = this.options.resource().get(scope, id)
    if (c === undefined || refundableAmount(c) < amount) {
      throw new Error(`charges.refund: ${id} cannot refund ${amount}`)
    }
    const txn = this.options.ledger.post({
      account: scope.account,
      mode: scope.mode,
      currency: c.currency as string,
      amount: -amount,
      type: 'refund',
      reportingCategory: 'refund',
      source: refund.id as string,
      description: 'REFUND FOR CHARGE',
      availableAfter: 0,
    })
    this.record(scope, c, amount, { ...refund, balance_transaction: txn.id }, origin)
    return txn.id
  }

  release(scope: Scope, id: string, refund: Readonly<Record<string, unknown>>, origin: Origin): void {
    const c = this.options.resource().get(scope, id)
    if (c === undefined || c.status !== 'succeeded' || c.captured === true) {
      throw new Error(`charges.release: ${id} is not an uncaptured successful charge`)
    }
    this.record(scope, c, c.amount as number, refund, origin)
  }

  unrefund(scope: Scope, id: string, refund: Readonly<Record<string, unknown>>): string {
    const r = this.options.resource()
    const c = r.get(scope, id)
    if (c === undefined) throw new Error(`charges.unrefund: no charge ${id}`)
    const amount = Number(refund.amount)
    const txn = this.options.ledger.post({
      account: scope.account,
      mode: scope.mode,
      currency: c.currency as string,
      amount,
      type: 'refund_failure',
      reportingCategory: 'refund_failure',
      source: refund.id as string,
      description: 'REFUND FAILURE',
      availableAfter: 0,
    })
    const list = refundsOf(c)
    r.put(scope, id, {
      amount_refunded: (c.amount_refunded as number) - amount,
      refunded: false,
      refunds: { ...list, data: list.data.map((x) => (x.id === refund.id ? refund : x)) },
    })
    return txn.id
  }

  releaseRemainder(scope: Scope, id: string, refund: Readonly<Record<string, unknown>>, origin: Origin): void {
    const c = this.options.resource().get(scope, id)
    if (c === undefined || c.captured !== true) throw new Error(`charges.releaseRemainder: ${id} is not captured`)
    this.record(scope, c, Number(refund.amount), refund, origin)
  }

  showRefund(scope: Scope, id: string, refund: Readonly<Record<string, unknown>>): void {
    const r = this.options.resource()
    const c = r.get(scope, id)
    const list = c === undefined ? undefined : refundsOf(c)
    if (c === undefined || list === undefined || !list.data.some((x) => x.id === refund.id)) return
    r.put(scope, id, { refunds: { ...list, data: list.data.map((x) => (x.id === refund.id ? refund : x)) } })
  }

  get(scope: Scope, id: string): Charge | undefined {
    return this.options.resource().get(scope, id)
  }

  list(scope: Scope): Charge[] {
    return this.options.resource().list(scope)
  }

  /** Posts a captured amount of a charge (its fee, the card's unless given); answers the transaction id. */
  private post(scope: Scope, c: Charge, amount: number, fee = cardFee(amount, c.currency as string)): string {
    const txn = this.options.ledger.post({
      account: scope.account,
      mode: scope.mode,
      currency: c.currency as string,
      amount,
      fee,
      type: 'charge',
      reportingCategory: 'charge',
      source: c.id,
      description: c.description as string | null,
      ...(bypassesPending(c) ? { availableAfter: 0 } : {}),
    })
    return txn.id
  }

  /** A refund on its charge: `amount_refunded`, `refunded`, the `refunds` list, `charge.refunded`. */
  private record(scope: Scope, c: Charge, amount: number, refund: Readonly<Record<string, unknown>>, origin: Origin): void {
    const { kernel, events, resource, disputes } = this.options
    const refunded = (c.amount_refunded as number) + amount
    const list = refundsOf(c)
    // Refunded means the whole authorised amount is back: what was captured and refunded, and what
    // a partial capture released.
    const whole = c.amount as number
    const updated = resource().put(scope, c.id, {
      amount_refunded: refunded,
      refunded: refunded >= whole,
      refunds: { ...list, data: [refund, ...list.data], total_count: list.total_count + 1 },
    })
    const previous = { amount_refunded: c.amount_refunded, refunded: c.refunded }
    emitSnapshot(events, 'charge.refunded', scope, updated, origin, previous, true)
    disputes.refunded(scope, updated, origin)
    kernel.trace.append('charge.refunded', {
      id: c.id,
      account: scope.account,
      mode: scope.mode,
      amount,
      refund: refund.id as string,
    })
  }
}

/** A charge's `refunds` list; an empty one for a payment stored without it (a transfer's `py_` payment). */
function refundsOf(c: Charge): RefundList {
  const list = c.refunds as RefundList | undefined
  return list ?? { object: 'list', data: [], has_more: false, total_count: 0, url: `/v1/charges/${c.id}/refunds` }
}

interface RefundList {
  readonly object?: string
  readonly data: { id: string }[]
  readonly has_more?: boolean
  readonly total_count: number
  readonly url?: string
}

/** Funds of a charge are available at once with the test card that bypasses the pending balance. */
function bypassesPending(c: Charge): boolean {
  const card = (c.payment_method_details as { card?: unknown } | null)?.card
  return cardOf({ id: c.id, card }).bypassPending === true
}

/** Stores the charge of an attempt, with the fields the request set. */
function createCharge(
  r: Resource,
  scope: Scope,
  input: ChargeAttempt,
  outcome: CardOutcome,
  authenticated: boolean,
  origin: Origin,
  id?: string,
): Charge {
  // `charge.created` is no catalogue event type, so the engine emits nothing; the attempt emits it.
  const c = r.create(
    scope,
    {},
    origin,
    (o) =>
      chargeFields({
        id: o.id,
        amount: input.amount,
        currency: input.currency,
        customer: input.customer,
        paymentIntent: input.paymentIntent,
        paymentMethod: input.paymentMethod,
        description: input.description,
        metadata: input.metadata,
        outcome,
        authenticated,
        incremental: input.incremental === true && !input.capture,
        ...(input.details === undefined ? {} : { details: input.details }),
      }),
    id,
  )
  return input.fields === undefined ? c : r.put(scope, c.id, input.fields)
}
