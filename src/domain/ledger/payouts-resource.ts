import type { ResourceDeclaration } from '../engine/declaration.js'
import type { ResourcePorts } from '../resource-ports.js'
import { tableError } from '../service-error.js'
import { requireAvailable } from './available-funds.js'
import { parseCurrency, positiveAmount } from './currencies.js'

const DAY_SECONDS = 24 * 60 * 60

/**
 * Payouts: `pending`, arriving in 2 days, when they become `paid` (`payout.paid`). A payout takes
 * its amount out of the available balance at once (a `payout` balance transaction) and is refused
 * with `balance_insufficient` beyond it. A pending payout can be canceled: the funds come back to
 * the available balance (`payout_cancel`, its `failure_balance_transaction`) and `payout.canceled`
 * is emitted. A connected account's paid payout can be reversed: a new payout of the opposite
 * amount (`original_payout`) debits the bank account and credits the balance, and the original
 * names it in `reversed_by`.
 */
export const payouts: ResourceDeclaration<ResourcePorts> = {
  type: 'Payout',
  object: 'payout',
  idPrefix: 'po',
  defaults: ({ created }) => ({
    arrival_date: created + 2 * DAY_SECONDS,
    method: 'standard',
    source_type: 'card',
    status: 'pending',
    type: 'bank_account',
  }),
  behaviours: {
    'payouts.create'(call, next, { ports }) {
      const currency = parseCurrency(String(call.params.currency))
      const amount = positiveAmount(call.params.amount)
      requireAvailable(ports.ledger, call.scope, currency, amount, 'payout')
      const created = next({ ...call.params, currency }, (made) => ({
        balance_transaction: ports.ledger.post({
          account: call.scope.account,
          mode: call.scope.mode,
          currency,
          amount: -amount,
          type: 'payout',
          reportingCategory: 'payout',
          source: made.id as string,
          description: (call.params.description as string | undefined) ?? null,
          availableAfter: 0,
        }).id,
      })) as { id: string; arrival_date: number }
      ports.moneyTimers.payoutArrives(call.scope, created.id, created.arrival_date)
      return created
    },
    'payouts.cancel'(call, _next, { engine, ports }) {
      const r = engine.resource('payout')
      const payout = r.require(call.scope, call.path.id ?? call.path.payout ?? '')
      if (payout.status !== 'pending') {
        throw tableError('payout_not_cancelable', { id: payout.id, status: String(payout.status) })
      }
      const txn = ports.ledger.post({
        account: call.scope.account,
        mode: call.scope.mode,
        currency: String(payout.currency),
        amount: Number(payout.amount),
        type: 'payout_cancel',
        reportingCategory: 'payout_reversal',
        source: payout.id,
        description: null,
        availableAfter: 0,
      })
      const canceled = r.set(call.scope, payout.id, { status: 'canceled', failure_balance_transaction: txn.id }, call.origin)
      engine.emit('payout.canceled', call.scope, canceled, call.origin)
      return canceled
    },
    'payouts.reverse'(call, _next, { engine, ports }) {
      const r = engine.resource('payout')
      const payout = r.require(call.scope, call.path.id ?? call.path.payout ?? '')
      const refuse = (reason: string) => tableError('payout_not_reversible', { id: payout.id, reason })
      // The provider reverses only payouts of connected accounts (the platform debits their bank).
      if (ports.accounts.get(call.scope.account)?.platform === undefined) {
        throw refuse('only payouts of connected accounts can be reversed')
      }
      if (payout.status === 'pending') throw refuse('it is still pending; cancel it instead')
      if (payout.status !== 'paid') throw refuse(`its status is ${String(payout.status)}`)
      if (payout.reversed_by !== null || payout.original_payout !== null) {
        throw refuse(payout.reversed_by !== null ? 'it is already reversed' : 'it is a reversal')
      }
      const amount = Number(payout.amount)
      const currency = String(payout.currency)
      const reversal = r.create(call.scope, { metadata: call.params.metadata ?? {} }, call.origin, (made) => ({
        amount: -amount,
        currency,
        destination: payout.destination,
        original_payout: payout.id,
        balance_transaction: ports.ledger.post({
          account: call.scope.account,
          mode: call.scope.mode,
          currency,
          amount,
          type: 'payout',
          reportingCategory: 'payout_reversal',
          source: made.id as string,
          description: null,
          availableAfter: 0,
        }).id,
      }))
      ports.moneyTimers.payoutArrives(call.scope, reversal.id, Number(reversal.arrival_date))
      r.set(call.scope, payout.id, { reversed_by: reversal.id }, call.origin)
      // The answer is the reversal, as the provider's.
      return reversal
    },
  },
}
