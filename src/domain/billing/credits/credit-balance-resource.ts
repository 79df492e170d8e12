import { errorMessage } from '#catalogue/errors.js'
import { isPlainObject } from '../../engine/apply-params.js'
import type { ResourceDeclaration } from '../../engine/declaration.js'
import { type Json, pageV1 } from '../../engine/list.js'
import type { ResourcePorts } from '../../resource-ports.js'
import { invalidRequest } from '../../service-error.js'

const missing = (param: string) =>
  invalidRequest(errorMessage('parameter_missing', { param }), { code: 'parameter_missing', param })

/**
 * A credit grant's balance transactions: `credit` when granted (or given back by a voided
 * invoice), `debit` when applied to an invoice, expired or voided. Billing makes them; the client
 * reads them, by grant or by customer.
 *
 * @example
 * await stripe.billing.creditBalanceTransactions.list({ customer: 'cus_…' })
 */
export const creditBalanceTransactions: ResourceDeclaration<ResourcePorts> = {
  type: 'Billing.CreditBalanceTransaction',
  object: 'billing.credit_balance_transaction',
  idPrefix: 'credbtxn',
  only: ['retrieve', 'list'],
  behaviours: {
    'billing.creditBalanceTransactions.list'(call, _next, { engine }) {
      // `customer` is the grant's, not a field of the transaction.
      const { customer, credit_grant: grant, ...params } = call.params
      if (customer === undefined && grant === undefined) throw missing('customer')
      const grants = engine.resource('billing.credit_grant')
      if (typeof customer === 'string') engine.resource('customer').requireParam(call.scope, customer, 'customer')
      if (typeof grant === 'string') grants.requireParam(call.scope, grant, 'credit_grant')
      const items = engine
        .resource('billing.credit_balance_transaction')
        .list(call.scope)
        .filter(
          (t) =>
            (grant === undefined || t.credit_grant === grant) &&
            (customer === undefined || grants.get(call.scope, String(t.credit_grant))?.customer === customer),
        )
      return pageV1(items, params, '/v1/billing/credit_balance_transactions', 'billing.credit_balance_transaction')
    },
  },
}

/**
 * A customer's credit balance summary: available (usable now) and ledger balances per currency,
 * over the grants the filter names (one grant, or those applicable to metered prices or given prices).
 *
 * @example
 * await stripe.billing.creditBalanceSummaries.retrieve({ customer: 'cus_…', filter: { type: 'applicability_scope', applicability_scope: { price_type: 'metered' } } })
 */
export const creditBalanceSummary: ResourceDeclaration<ResourcePorts> = {
  type: 'Billing.CreditBalanceSummary',
  object: 'billing.credit_balance_summary',
  idPrefix: 'credbs',
  only: [],
  ephemeral: true,
  behaviours: {
    'billing.creditBalanceSummaries.retrieve'(call, _next, { engine, ports }) {
      const { customer, filter } = call.params
      if (typeof customer !== 'string') throw missing('customer')
      const c = engine.resource('customer').requireParam(call.scope, customer, 'customer')
      if (!isPlainObject(filter) || typeof filter.type !== 'string') throw missing('filter[type]')
      let only: (g: Json) => boolean
      if (filter.type === 'credit_grant') {
        if (typeof filter.credit_grant !== 'string') throw missing('filter[credit_grant]')
        engine.resource('billing.credit_grant').requireParam(call.scope, filter.credit_grant, 'filter[credit_grant]')
        only = (g) => g.id === filter.credit_grant
      } else {
        const wanted = isPlainObject(filter.applicability_scope) ? filter.applicability_scope : {}
        const prices = (
          Array.isArray(wanted.prices) ? wanted.prices : isPlainObject(wanted.prices) ? Object.values(wanted.prices) : []
        )
          .map((p) => (isPlainObject(p) ? p.id : undefined))
          .filter((id): id is string => typeof id === 'string')
        only = (g) => {
          const scope = (g.applicability_config as { scope?: { price_type?: unknown; prices?: { id: unknown }[] } }).scope
          if (prices.length === 0) return true
          return scope?.price_type === 'metered' || (scope?.prices ?? []).some((p) => prices.includes(String(p.id)))
        }
      }
      const now = Math.floor(ports.billing.timelineOfCustomer(call.scope, c).now() / 1000)
      return {
        object: 'billing.credit_balance_summary',
        balances: ports.billing.credits.summary(call.scope, c.id, now, only),
        customer: c.id,
        customer_account: null,
        livemode: call.scope.mode === 'live',
      }
    },
  },
}
