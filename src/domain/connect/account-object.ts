import type { DefaultsContext } from '../engine/declaration.js'
import { nothingDue } from './account-requirements.js'

type Plain = Record<string, unknown>

type Params = Readonly<Record<string, unknown>>

/** The currency a country settles in, where the simulator knows it (else `usd`). */
const CURRENCY: Readonly<Record<string, string>> = {
  AU: 'aud',
  BR: 'brl',
  CA: 'cad',
  CH: 'chf',
  DK: 'dkk',
  GB: 'gbp',
  HK: 'hkd',
  IN: 'inr',
  JP: 'jpy',
  MX: 'mxn',
  NO: 'nok',
  NZ: 'nzd',
  PL: 'pln',
  SE: 'sek',
  SG: 'sgd',
  US: 'usd',
}
const EURO = new Set('AT BE CY DE EE ES FI FR GR HR IE IT LT LU LV MT NL PT SI SK'.split(' '))

/**
 * The currency an account of this country settles in by default.
 *
 * @example
 * currencyOf('FR') // 'eur'
 */
export function currencyOf(country: string): string {
  return EURO.has(country) ? 'eur' : (CURRENCY[country] ?? 'usd')
}

/**
 * Who controls an account, as the provider shows it for each legacy type (its controller
 * properties table): a platform's own account is controlled by itself; a connected account by
 * the platform's application, with fees, losses, requirement collection and dashboard per type.
 *
 * @example
 * controllerOf('custom', true) // { fees: { payer: 'application_custom' }, is_controller: true, ..., type: 'application' }
 */
export function controllerOf(type: string, connected: boolean): Plain {
  if (!connected) return { type: 'account' }
  const byType: Record<string, [string, string, string, string]> = {
    standard: ['account', 'stripe', 'stripe', 'full'],
    express: ['application_express', 'application', 'stripe', 'express'],
    custom: ['application_custom', 'application', 'application', 'none'],
  }
  const [payer, losses, collection, dashboard] = byType[type] ?? (byType.custom as [string, string, string, string])
  return {
    fees: { payer },
    is_controller: true,
    losses: { payments: losses },
    requirement_collection: collection,
    stripe_dashboard: { type: dashboard },
    type: 'application',
  }
}

/**
 * The documented defaults of a new account's objects: an empty business profile, the branding,
 * card payments, dashboard, payments and payouts settings (daily payouts two days after the
 * funds arrive), no terms accepted, nothing due, no external account.
 *
 * @example
 * accountDefaults(ctx) // { business_profile: { mcc: null, ... }, settings: { payouts: { schedule: { delay_days: 2, interval: 'daily' } } }, ... }
 */
export function accountDefaults(ctx: DefaultsContext): Plain {
  const country = typeof ctx.params.country === 'string' ? ctx.params.country.toUpperCase() : 'US'
  return {
    business_profile: {
      annual_revenue: null,
      estimated_worker_count: null,
      mcc: null,
      minority_owned_business_designation: null,
      name: null,
      product_description: null,
      specified_commercial_transactions_act_url: null,
      support_address: null,
      support_email: null,
      support_phone: null,
      support_url: null,
      url: null,
    },
    business_type: null,
    capabilities: {},
    country,
    created: ctx.created,
    default_currency: currencyOf(country),
    external_accounts: {
      object: 'list',
      data: [],
      has_more: false,
      total_count: 0,
      url: `/v1/accounts/${ctx.id}/external_accounts`,
    },
    future_requirements: nothingDue(),
    groups: null,
    metadata: {},
    requirements: nothingDue(),
    settings: {
      bacs_debit_payments: { display_name: null, service_user_number: null },
      branding: { icon: null, logo: null, primary_color: null, secondary_color: null },
      card_issuing: { tos_acceptance: { date: null, ip: null } },
      card_payments: {
        decline_on: { avs_failure: false, cvc_failure: false },
        statement_descriptor_prefix: null,
        statement_descriptor_prefix_kana: null,
        statement_descriptor_prefix_kanji: null,
      },
      dashboard: { display_name: null, timezone: 'Etc/UTC' },
      invoices: { default_account_tax_ids: null, hosted_payment_method_save: 'offer' },
      payments: {
        statement_descriptor: null,
        statement_descriptor_kana: null,
        statement_descriptor_kanji: null,
        statement_descriptor_prefix_kana: null,
        statement_descriptor_prefix_kanji: null,
      },
      payouts: { debit_negative_balances: true, schedule: { delay_days: 2, interval: 'daily' }, statement_descriptor: null },
      sepa_debit_payments: {},
    },
    tos_acceptance: { date: null, ip: null, user_agent: null },
  }
}

/**
 * The requested capabilities after `capabilities[name][requested]` params (true adds, false removes).
 *
 * @example
 * requestedAfter({ transfers: 'active' }, { card_payments: { requested: true }, transfers: { requested: false } }) // { card_payments: 'inactive' }
 */
export function requestedAfter(current: unknown, param: unknown): Record<string, string> {
  const out: Record<string, string> = { ...((current as Record<string, string> | undefined) ?? {}) }
  if (typeof param !== 'object' || param === null) return out
  for (const [name, ask] of Object.entries(param as Params)) {
    const requested = (ask as Params | undefined)?.requested
    if (requested === true || requested === 'true') out[name] = out[name] ?? 'inactive'
    else if (requested === false || requested === 'false') delete out[name]
  }
  return out
}

/**
 * The bank account an `external_account` param names (a test token such as `btok_us_verified`,
 * or the bank details as an object): the provider's test bank, default for its currency.
 *
 * @example
 * externalAccountOf('acct_1', { country: 'US', currency: 'usd', account_number: '000123456789' }, 'US', 1)
 */
export function externalAccountOf(account: string, param: unknown, country: string, n: number): Plain {
  const given = typeof param === 'object' && param !== null ? (param as Params) : {}
  const bankCountry = typeof given.country === 'string' ? given.country.toUpperCase() : country
  const number = typeof given.account_number === 'string' ? given.account_number : '000123456789'
  return {
    id: `ba_${account.slice(5)}${String(n).padStart(8, '0')}`,
    object: 'bank_account',
    account,
    account_holder_name: typeof given.account_holder_name === 'string' ? given.account_holder_name : null,
    account_holder_type: typeof given.account_holder_type === 'string' ? given.account_holder_type : null,
    account_type: null,
    available_payout_methods: ['standard'],
    bank_name: 'STRIPE TEST BANK',
    country: bankCountry,
    currency: typeof given.currency === 'string' ? given.currency.toLowerCase() : currencyOf(bankCountry),
    default_for_currency: true,
    fingerprint: `${account.slice(5, 13)}${number.slice(-4)}`,
    future_requirements: { currently_due: [], errors: [], past_due: [], pending_verification: [] },
    last4: number.slice(-4),
    metadata: {},
    requirements: { currently_due: [], errors: [], past_due: [], pending_verification: [] },
    routing_number: typeof given.routing_number === 'string' ? given.routing_number : '110000000',
    status: 'new',
  }
}

/**
 * `*_provided` flags for identity numbers the provider never echoes (`ssn_last_4`, `id_number`, `tax_id`).
 *
 * @example
 * providedFlags({ first_name: 'J' }, { ssn_last_4: '0000' }, { ssn_last_4: 'ssn_last_4_provided' }) // { first_name: 'J', ssn_last_4_provided: true }
 */
export function providedFlags(current: unknown, param: unknown, flags: Readonly<Record<string, string>>): Plain | undefined {
  if (typeof current !== 'object' || current === null || typeof param !== 'object' || param === null) return undefined
  const out: Plain = { ...(current as Plain) }
  for (const [given, flag] of Object.entries(flags)) {
    if (typeof (param as Params)[given] === 'string' && (param as Params)[given] !== '') out[flag] = true
  }
  return out
}
