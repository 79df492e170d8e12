type Plain = Record<string, unknown>

type Obj = Readonly<Record<string, unknown>>

const BASE = [
  'business_profile.mcc',
  'business_profile.url',
  'business_type',
  'external_account',
  'tos_acceptance.date',
  'tos_acceptance.ip',
] as const

const ADDRESS = ['address.city', 'address.line1', 'address.postal_code', 'address.state'] as const

const INDIVIDUAL = [
  ...ADDRESS,
  'dob.day',
  'dob.month',
  'dob.year',
  'email',
  'first_name',
  'last_name',
  'phone',
  'ssn_last_4',
].map((f) => `individual.${f}`)

const COMPANY = [...ADDRESS, 'name', 'phone', 'tax_id'].map((f) => `company.${f}`)

/** A dotted path of an object (`individual.dob.day`), or undefined where a step is missing. */
function at(obj: Obj, path: string): unknown {
  let v: unknown = obj
  for (const step of path.split('.')) {
    if (typeof v !== 'object' || v === null) return undefined
    v = (v as Obj)[step]
  }
  return v
}

const provided = (v: unknown) => v !== undefined && v !== null && v !== '' && v !== 0

/** Whether a requirement is met by the account object (some are kept as `*_provided` flags, never echoed). */
function met(account: Obj, requirement: string): boolean {
  switch (requirement) {
    case 'business_profile.url':
      return provided(at(account, 'business_profile.url')) || provided(at(account, 'business_profile.product_description'))
    case 'external_account':
      return ((at(account, 'external_accounts.data') as unknown[] | undefined)?.length ?? 0) > 0
    case 'individual.ssn_last_4':
      return at(account, 'individual.ssn_last_4_provided') === true || at(account, 'individual.id_number_provided') === true
    case 'company.tax_id':
      return at(account, 'company.tax_id_provided') === true
    default:
      return provided(at(account, requirement))
  }
}

/**
 * The fields an account opened through the API still owes for its requested capabilities, as the
 * provider lists them in `requirements.currently_due` of a test-mode custom account: the business
 * type, an external account, the terms of service acceptance, the business profile's MCC and URL,
 * and the individual's or company's identity (persons are not served, so no representative).
 *
 * @example
 * dueOf({ business_type: null, capabilities: { transfers: 'inactive' } }) // ['business_profile.mcc', ..., 'tos_acceptance.ip']
 */
export function dueOf(account: Obj): string[] {
  const requested = Object.keys((account.capabilities as Obj | undefined) ?? {})
  if (requested.length === 0) return []
  const type = account.business_type
  const identity = type === 'individual' ? INDIVIDUAL : typeof type === 'string' ? COMPANY : []
  return [...BASE, ...identity].filter((r) => !met(account, r)).sort()
}

/**
 * `requirements` (and `future_requirements`) with nothing due.
 *
 * @example
 * nothingDue().currently_due // []
 */
export function nothingDue(): Plain {
  return {
    alternatives: [],
    current_deadline: null,
    currently_due: [],
    disabled_reason: null,
    errors: [],
    eventually_due: [],
    past_due: [],
    pending_verification: [],
  }
}

/**
 * The fields of an account that follow from the rest: each requested capability is `active` once
 * nothing is due (the simulator verifies at once, as test mode does with test values) and
 * `inactive` while something is, with `requirements` listing what (past due from the start, as
 * on a new custom account); `charges_enabled` follows `card_payments`, `payouts_enabled` also needs
 * an external account. An onboarded account (the platform, one the operator set up) owes nothing.
 *
 * @example
 * derived(account, { onboarded: false }) // { capabilities: { transfers: 'inactive' }, requirements: { currently_due: [...] }, ... }
 */
export function derived(account: Obj, opts: { readonly onboarded: boolean }): Plain {
  const due = opts.onboarded ? [] : dueOf(account)
  const status = due.length === 0 ? 'active' : 'inactive'
  const capabilities: Record<string, string> = {}
  for (const name of Object.keys((account.capabilities as Obj | undefined) ?? {}).sort()) capabilities[name] = status
  const requirements = nothingDue()
  if (due.length > 0) {
    Object.assign(requirements, {
      currently_due: due,
      disabled_reason: 'requirements.past_due',
      eventually_due: due,
      past_due: due,
    })
  }
  const anyActive = Object.keys(capabilities).length > 0 && status === 'active'
  const hasBank = opts.onboarded || met(account, 'external_account')
  return {
    capabilities,
    charges_enabled: capabilities.card_payments === 'active',
    details_submitted: opts.onboarded || anyActive,
    payouts_enabled: anyActive && hasBank,
    requirements,
  }
}
