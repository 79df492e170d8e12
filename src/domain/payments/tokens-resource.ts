import type { ResourceDeclaration } from '../engine/declaration.js'
import type { Engine } from '../engine/engine.js'
import type { Json } from '../engine/list.js'
import type { Scope } from '../mode.js'
import type { ResourcePorts } from '../resource-ports.js'
import { type CardDetails, enteredCard } from './card-number.js'
import { type CardHolder, legacyCardFields } from './legacy-card.js'

type Params = Readonly<Record<string, unknown>>

/** The kinds of token besides cards and bank accounts, by the param that makes them. */
const OTHER_KINDS = ['pii', 'account', 'person', 'cvc_update'] as const

/**
 * The year and month (1-12) of the virtual clock, for card expiry checks.
 *
 * @example
 * clockMonth(engine) // { year: 2026, month: 11 }
 */
export function clockMonth(engine: Engine): { year: number; month: number } {
  const d = new Date(engine.now() * 1000)
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1 }
}

/**
 * A new legacy card (`card_…`, not stored on its own: it lives in its token or a charge's
 * `source`) from card details, refused as the provider's card validation refuses them.
 *
 * @example
 * const card = makeCard(engine, scope, { number: '4242424242424242', exp_month: '12', exp_year: '2034' })
 */
export function makeCard(engine: Engine, scope: Scope, details: CardDetails & CardHolder): Json {
  const { year, month } = clockMonth(engine)
  const entered = enteredCard(details, year, month)
  const card = engine.build('Card', 'card', scope)
  return Object.assign(card, legacyCardFields(card.id, entered.card, entered.expMonth, entered.expYear, details))
}

/**
 * Tokens: single-use stand-ins for card (or bank account, PII, account, person) details.
 * `tokens.create` with `card[...]` checks the card as the provider does (402 `incorrect_number`,
 * `invalid_expiry_month`, `invalid_expiry_year`, nothing stored) and holds a legacy card whose test
 * number fixes how it charges; a token is `used` once a charge or payment method takes it. The
 * provider's test tokens (`tok_visa`, `tok_chargeDeclined`, ...) are not stored: each use makes a
 * new card (`payment-method.ts`).
 *
 * @example
 * await stripe.tokens.create({ card: { number: '4242424242424242', exp_month: '12', exp_year: '2034' } })
 */
export const tokens: ResourceDeclaration<ResourcePorts> = {
  type: 'Token',
  object: 'token',
  idPrefix: 'tok',
  only: ['retrieve'],
  behaviours: {
    'tokens.create'(call, _next, { engine }) {
      const p: Params = call.params
      const fixed = tokenFields(engine, call.scope, p)
      return engine.resource('token').create(call.scope, {}, call.origin, { client_ip: null, used: false, ...fixed })
    },
  },
}

/** The kind-specific fields of a new token, refused before anything is made. */
function tokenFields(engine: Engine, scope: Scope, p: Params): Record<string, unknown> {
  if (typeof p.card === 'object' && p.card !== null) {
    return { type: 'card', card: makeCard(engine, scope, p.card as CardDetails & CardHolder) }
  }
  if (typeof p.bank_account === 'object' && p.bank_account !== null) {
    const b = p.bank_account as Record<string, unknown>
    const number = String(b.account_number ?? '')
    const bank = engine.build('BankAccount', 'bank_account', scope, {
      account_holder_name: b.account_holder_name ?? null,
      account_holder_type: b.account_holder_type ?? null,
      account_type: b.account_type ?? null,
      country: b.country ?? 'US',
      currency: b.currency ?? 'usd',
      last4: number.slice(-4),
      routing_number: b.routing_number ?? null,
      status: 'new',
    })
    return { type: 'bank_account', bank_account: bank }
  }
  return { type: OTHER_KINDS.find((k) => p[k] !== undefined) ?? 'account' }
}
