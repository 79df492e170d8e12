import type { ResourceDeclaration } from '../engine/declaration.js'
import type { ResourcePorts } from '../resource-ports.js'
import type { CurrencyBalance } from './ledger.js'

type Part = 'available' | 'pending'

/** The default currency the provider lists, at zero, before any money moved. */
const NOTHING: readonly CurrencyBalance[] = [{ currency: 'usd', available: 0, pending: 0 }]

const amounts = (rows: readonly CurrencyBalance[], part: Part | 'none') =>
  rows.map((r) => {
    const amount = part === 'none' ? 0 : r[part]
    return { amount, currency: r.currency, source_types: { card: amount } }
  })

/**
 * The balance: `available` and `pending` per currency, summed from the ledger's balance
 * transactions (the ledger is the only record of money). The parts the simulator never fills
 * are listed at zero in the same currencies, as the provider lists them: `connect_reserved`
 * (nothing is reserved for connected accounts' negative balances), `instant_available` (no
 * instant payouts), `issuing` (no issuing balance) and `refund_and_dispute_prefunding`.
 *
 * @example
 * engine.run('balance.retrieve', { scope, origin, path: {}, params: {} })
 * // { object: 'balance', available: [{ amount: 0, currency: 'usd', source_types: { card: 0 } }], connect_reserved: [...], ... }
 */
export const balance: ResourceDeclaration<ResourcePorts> = {
  type: 'Balance',
  object: 'balance',
  idPrefix: 'bal',
  only: [],
  behaviours: {
    'balance.retrieve'(call, _next, { ports }) {
      const found = ports.ledger.balance(call.scope)
      const rows = found.length > 0 ? found : NOTHING
      return {
        object: 'balance',
        available: amounts(rows, 'available'),
        connect_reserved: amounts(rows, 'none'),
        instant_available: amounts(rows, 'none').map((a) => ({ ...a, net_available: [] })),
        issuing: { available: amounts(rows, 'none') },
        livemode: call.scope.mode === 'live',
        pending: amounts(rows, 'pending'),
        refund_and_dispute_prefunding: { available: amounts(rows, 'none'), pending: amounts(rows, 'none') },
      }
    },
  },
}
