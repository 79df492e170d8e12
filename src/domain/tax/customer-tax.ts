import type { Json } from '../engine/list.js'

type Address = { country?: unknown; state?: unknown; postal_code?: unknown } | null | undefined

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined)

/**
 * Whether an address is precise enough for automatic tax, as the provider's tax guide puts it: a
 * country outside the US and Canada, a postal code in the US, a province or postal code in Canada.
 */
function recognized(address: Address): boolean {
  const country = text(address?.country)
  if (country === undefined) return false
  if (country === 'US') return text(address?.postal_code) !== undefined
  if (country === 'CA') return text(address?.postal_code) !== undefined || text(address?.state) !== undefined
  return true
}

/**
 * A customer's `tax` as the provider answers it: the IP address the caller gave (`tax[ip_address]`),
 * the location read from the billing address when it is precise enough for automatic tax (else
 * `unrecognized_location` and no location), and the location provider (`stripe`, no third-party
 * tax app being connected).
 *
 * @example
 * customerTax({ address: { country: 'US', postal_code: '94103', state: 'CA' }, tax: { ip_address: '1.2.3.4' } })
 * // { automatic_tax: 'supported', ip_address: '1.2.3.4', location: { country: 'US', source: 'billing_address', state: 'CA' }, provider: 'stripe' }
 */
export function customerTax(customer: Json): Record<string, unknown> {
  const given = customer.tax as { ip_address?: unknown } | null | undefined
  const address = customer.address as Address
  const known = recognized(address)
  return {
    automatic_tax: known ? 'supported' : 'unrecognized_location',
    ip_address: text(given?.ip_address) ?? null,
    location: known ? { country: text(address?.country), source: 'billing_address', state: text(address?.state) ?? null } : null,
    provider: 'stripe',
  }
}
