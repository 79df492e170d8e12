/**
 * How a search field compares: `string` exact (case-insensitive) and, where `substring` is set,
 * `~`; `token` exact and case-sensitive; `numeric` exact and `>`, `<`, `>=`, `<=`; `boolean`
 * exact `true` or `false`.
 */
export type SearchFieldType = 'string' | 'token' | 'numeric' | 'boolean'

/** One documented query field of a resource's search. */
export interface SearchField {
  readonly type: SearchFieldType
  /** Whether `~` (substring) is allowed on it. */
  readonly substring?: boolean
  /** Where the current object keeps it, when that is not the field's own path. */
  readonly path?: string
}

const numeric: SearchField = { type: 'numeric' }
const text: SearchField = { type: 'string' }
const words: SearchField = { type: 'string', substring: true }
const token: SearchField = { type: 'token' }
const flag: SearchField = { type: 'boolean' }

/** The card fields a charge's search reads under each card-like payment method. */
function cardFields(method: string): Record<string, SearchField> {
  const at = `payment_method_details.${method}`
  return {
    [`${at}.brand`]: token,
    [`${at}.exp_month`]: numeric,
    [`${at}.exp_year`]: numeric,
    [`${at}.fingerprint`]: token,
    [`${at}.last4`]: text,
  }
}

/**
 * The query fields the provider documents for each searchable resource ("Search query language",
 * query fields per resource), by the resource's path segment. `metadata['key']` (a token) is
 * searchable on every one of them and is not listed.
 *
 * @example
 * SEARCH_FIELDS.customers?.email // { type: 'string', substring: true }
 */
export const SEARCH_FIELDS: Readonly<Record<string, Readonly<Record<string, SearchField>>>> = {
  charges: {
    amount: numeric,
    'billing_details.address.postal_code': text,
    created: numeric,
    currency: text,
    customer: text,
    disputed: flag,
    ...cardFields('card'),
    ...cardFields('card_present'),
    ...cardFields('interac_present'),
    refunded: flag,
    status: token,
  },
  customers: { created: numeric, email: words, name: words, phone: words },
  invoices: {
    created: numeric,
    currency: text,
    customer: text,
    last_finalization_error_code: { type: 'string', path: 'last_finalization_error.code' },
    last_finalization_error_type: { type: 'string', path: 'last_finalization_error.type' },
    number: text,
    receipt_number: text,
    status: text,
    subscription: { type: 'string', path: 'parent.subscription_details.subscription' },
    total: numeric,
  },
  payment_intents: { amount: numeric, created: numeric, currency: text, customer: text, status: text },
  prices: { active: flag, currency: text, lookup_key: text, product: text, type: token },
  products: { active: flag, description: words, name: words, shippable: flag, url: text },
  subscriptions: {
    canceled_at: numeric,
    created: numeric,
    current_period_end: { type: 'numeric', path: 'items.data.0.current_period_end' },
    current_period_start: { type: 'numeric', path: 'items.data.0.current_period_start' },
    status: text,
  },
}

/** The fewest characters a substring (`~`) value may have. */
export const SEARCH_SUBSTRING_MIN = 3

/** The most clauses one search query may join. */
export const SEARCH_CLAUSES_MAX = 10
