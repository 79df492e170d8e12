import type { TaskKind } from '#kernel/scheduler.js'
import { DAY } from '#kernel/time.js'
import type { Engine } from '../../engine/engine.js'
import type { Json } from '../../engine/list.js'
import { emitSnapshot, NO_ORIGIN, type Origin } from '../../events/emit-snapshot.js'
import type { EventStore } from '../../events/event-store.js'
import type { Kernel } from '../../kernel-parts.js'
import type { Ledger } from '../../ledger/ledger.js'
import type { Scope } from '../../mode.js'
import { cardOf, type DisputeTrigger } from '../payment-method.js'
import { createEarlyFraudWarnings, type EarlyFraudWarnings } from './early-fraud-warnings.js'

/** The provider's dispute fee, in the charge's minor units (15.00). */
export const DISPUTE_FEE = 1500

/** Days the merchant has to answer a dispute (the provider's evidence deadline in test mode). */
const RESPONSE_DAYS = 7

/** Statuses of a dispute that still waits for the merchant's answer. */
export const OPEN_STATUSES: ReadonlySet<string> = new Set(['needs_response', 'warning_needs_response'])

/** Statuses of a dispute whose submitted evidence the bank is reviewing. */
const UNDER_REVIEW: ReadonlySet<string> = new Set(['under_review', 'warning_under_review'])

/** How a dispute ended: the merchant won or lost it. */
export type DisputeOutcome = 'won' | 'lost'

/**
 * Disputes over the engine's `dispute` store and the ledger. A captured payment with one of the
 * provider's dispute test cards is disputed at the same virtual instant, asynchronously as at the
 * provider (`await sim.settle()`): the dispute is created (`charge.dispute.created`), and unless it
 * is an inquiry the amount and a 15.00 fee leave the balance as one `adjustment` balance
 * transaction (`charge.dispute.funds_withdrawn`). A dispute closes won (the amount and the fee come
 * back: `charge.dispute.funds_reinstated`) or lost, with `charge.dispute.closed`.
 *
 * @example
 * disputes.scheduleFor(scope, charge) // after the capture of a pm_card_createDispute payment
 * disputes.close(scope, 'dp_1', 'won', origin)
 */
export interface Disputes {
  /**
   * Opens a dispute on the charge later at this instant when its card is a dispute test card (an
   * early fraud warning when it is the warning test card).
   */
  scheduleFor(scope: Scope, charge: Json): void
  /** Retires the charge's early fraud warnings once a refund has made it fully refunded. */
  refunded: EarlyFraudWarnings['refunded']
  /** Closes an open or reviewed dispute: funds come back when won. */
  close(scope: Scope, id: string, outcome: DisputeOutcome, origin: Origin): Json
  /**
   * Decides a dispute under review later at this instant (the bank rules after the submission, not
   * during it): it closes with `outcome` unless it was closed meanwhile.
   */
  decideLater(scope: Scope, id: string, outcome: DisputeOutcome): void
}

export interface DisputesOptions {
  readonly kernel: Kernel
  readonly events: EventStore
  readonly ledger: Ledger
  /** The engine (made after the ports, so read on use). */
  readonly engine: () => Engine
}

/**
 * Builds the disputes area.
 *
 * @example
 * const disputes = createDisputes({ kernel, events, ledger, engine: engineOf })
 */
export function createDisputes(options: DisputesOptions): Disputes {
  return new DisputeDesk(options)
}

/**
 * The disputes area's operations. A class: it is made per simulation (every fork), and its methods
 * on the prototype cost nothing per instance.
 */
class DisputeDesk implements Disputes {
  readonly refunded: EarlyFraudWarnings['refunded']
  private readonly options: DisputesOptions
  private readonly warnings: EarlyFraudWarnings
  private readonly opening: TaskKind<{ account: string; mode: Scope['mode']; charge: string }>
  private readonly deciding: TaskKind<{ account: string; mode: Scope['mode']; dispute: string; outcome: DisputeOutcome }>

  constructor(options: DisputesOptions) {
    const { kernel, engine } = options
    this.options = options
    this.warnings = createEarlyFraudWarnings({ kernel, engine })
    this.refunded = this.warnings.refunded
    this.opening = kernel.scheduler.define<{ account: string; mode: Scope['mode']; charge: string }>(
      'charge.dispute.open',
      ({ account, mode, charge }) => this.open({ account, mode }, charge),
    )
    this.deciding = kernel.scheduler.define<{ account: string; mode: Scope['mode']; dispute: string; outcome: DisputeOutcome }>(
      'charge.dispute.decide',
      ({ account, mode, dispute, outcome }) => {
        const scope = { account, mode }
        const d = engine().resource('dispute').get(scope, dispute)
        if (d !== undefined && UNDER_REVIEW.has(String(d.status))) this.close(scope, dispute, outcome, NO_ORIGIN)
      },
    )
  }

  scheduleFor(scope: Scope, charge: Json): void {
    this.warnings.scheduleFor(scope, charge)
    const details = charge.payment_method_details as { card?: Record<string, unknown> } | undefined
    if (details?.card === undefined || cardOf({ id: charge.id, card: details.card }).dispute === undefined) return
    this.opening.at(this.options.kernel.clock.now, { account: scope.account, mode: scope.mode, charge: charge.id })
  }

  decideLater(scope: Scope, id: string, outcome: DisputeOutcome): void {
    this.deciding.at(this.options.kernel.clock.now, { account: scope.account, mode: scope.mode, dispute: id, outcome })
  }

  close(scope: Scope, id: string, outcome: DisputeOutcome, origin: Origin): Json {
    const { events, ledger, engine } = this.options
    const r = engine().resource('dispute')
    const d = r.require(scope, id)
    const inquiry = String(d.status).startsWith('warning_')
    const withdrawn = (d.balance_transactions as unknown[]).length > 0
    const status = inquiry ? 'warning_closed' : outcome
    let closed = r.put(scope, id, { status })
    if (outcome === 'won' && withdrawn) {
      const txn = ledger.post({
        account: scope.account,
        mode: scope.mode,
        currency: d.currency as string,
        amount: d.amount as number,
        fee: -DISPUTE_FEE,
        feeDescription: 'Dispute fee',
        type: 'adjustment',
        reportingCategory: 'dispute_reversal',
        source: id,
        description: `Chargeback reversal for ${String(d.charge)}`,
        availableAfter: 0,
      })
      closed = r.put(scope, id, {
        balance_transactions: [...(d.balance_transactions as unknown[]), txn],
      })
      emitSnapshot(events, 'charge.dispute.funds_reinstated', scope, closed, origin, undefined, true)
    }
    emitSnapshot(events, 'charge.dispute.closed', scope, closed, origin, { status: d.status }, true)
    return closed
  }

  /** Opens the dispute a captured charge's test card asks for; unless an inquiry, its funds leave. */
  private open(scope: Scope, chargeId: string): void {
    const e = this.options.engine()
    const charge = e.resource('charge').get(scope, chargeId)
    const details = charge?.payment_method_details as { card?: Record<string, unknown> } | undefined
    const trigger = details?.card === undefined ? undefined : cardOf({ id: chargeId, card: details.card }).dispute
    if (charge === undefined || trigger === undefined) return
    e.resource('charge').put(scope, charge.id, { disputed: true })
    const fields = disputeFields(charge, details?.card, trigger, e.now())
    const dispute = e.resource('dispute').create(scope, {}, NO_ORIGIN, fields)
    if (!trigger.inquiry) this.withdraw(scope, charge, dispute)
  }

  /** The disputed amount and the dispute fee leave the balance (`charge.dispute.funds_withdrawn`). */
  private withdraw(scope: Scope, charge: Json, dispute: Json): void {
    const { events, ledger, engine } = this.options
    const txn = ledger.post({
      account: scope.account,
      mode: scope.mode,
      currency: charge.currency as string,
      amount: -(charge.amount_captured as number),
      fee: DISPUTE_FEE,
      feeDescription: 'Dispute fee',
      type: 'adjustment',
      reportingCategory: 'dispute',
      source: dispute.id,
      description: `Chargeback withdrawal for ${charge.id}`,
      availableAfter: 0,
    })
    const withdrawn = engine()
      .resource('dispute')
      .put(scope, dispute.id, { balance_transactions: [txn] })
    emitSnapshot(events, 'charge.dispute.funds_withdrawn', scope, withdrawn, NO_ORIGIN, undefined, true)
  }
}

/** The fields of a new dispute on `charge`, opened at `now` (unix seconds). */
function disputeFields(
  charge: Json,
  card: Record<string, unknown> | undefined,
  trigger: DisputeTrigger,
  now: number,
): Record<string, unknown> {
  return {
    amount: charge.amount_captured as number,
    balance_transactions: [],
    charge: charge.id,
    currency: charge.currency as string,
    evidence_details: {
      due_by: now + (RESPONSE_DAYS * DAY) / 1000,
      enhanced_eligibility: {},
      has_evidence: false,
      past_due: false,
      submission_count: 0,
      submission_method: null,
    },
    is_charge_refundable: false,
    payment_intent: charge.payment_intent ?? null,
    payment_method_details: {
      card: {
        brand: card?.brand ?? 'visa',
        case_type: trigger.inquiry ? 'inquiry' : 'chargeback',
        network_reason_code: trigger.reason === 'fraudulent' ? '10.4' : '13.1',
      },
      type: 'card',
    },
    reason: trigger.reason,
    status: trigger.inquiry ? 'warning_needs_response' : 'needs_response',
  }
}
