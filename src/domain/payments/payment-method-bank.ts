import { tableError } from '../service-error.js'

type Params = Readonly<Record<string, unknown>>

/**
 * The fields of a new `us_bank_account` payment method from `paymentMethods.create`'s params,
 * refusing (before anything changes) what the provider requires: the account and routing numbers
 * and the holder's name. The test bank answers for every routing number.
 *
 * @example
 * bankAccountFields({ type: 'us_bank_account', us_bank_account: { account_number: '000123456789', routing_number: '110000000' }, billing_details: { name: 'J' } })
 */
export function bankAccountFields(p: Params): Record<string, unknown> {
  const given = (p.us_bank_account ?? {}) as Record<string, unknown>
  for (const field of ['account_number', 'routing_number']) {
    if (typeof given[field] !== 'string') {
      const param = `us_bank_account[${field}]`
      throw tableError('parameter_missing', { param }, { param })
    }
  }
  const name = (p.billing_details as { name?: unknown } | undefined)?.name
  if (typeof name !== 'string' || name === '') {
    throw tableError('parameter_missing', { param: 'billing_details[name]' }, { param: 'billing_details[name]' })
  }
  const number = given.account_number as string
  return {
    type: 'us_bank_account',
    us_bank_account: {
      account_holder_type: given.account_holder_type ?? 'individual',
      account_type: given.account_type ?? 'checking',
      bank_name: 'STRIPE TEST BANK',
      financial_connections_account: null,
      fingerprint: `${given.routing_number as string}${number}`.slice(-16),
      last4: number.slice(-4),
      networks: { preferred: 'ach', supported: ['ach'] },
      routing_number: given.routing_number,
      status_details: null,
    },
  }
}
