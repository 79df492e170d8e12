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

/**
 * The fields of a new `sepa_debit` payment method from `paymentMethods.create`'s params, refusing
 * (before anything changes) what the provider requires: the IBAN, the holder's name and email.
 * Its fingerprint is the IBAN's last 16 characters, which tells the test IBANs apart.
 *
 * @example
 * sepaDebitFields({ type: 'sepa_debit', sepa_debit: { iban: 'AT321904300235473204' }, billing_details: { name: 'J', email: 'j@example.com' } })
 */
export function sepaDebitFields(p: Params): Record<string, unknown> {
  const iban = (p.sepa_debit as { iban?: unknown } | undefined)?.iban
  if (typeof iban !== 'string' || iban.trim() === '') {
    throw tableError('parameter_missing', { param: 'sepa_debit[iban]' }, { param: 'sepa_debit[iban]' })
  }
  const billing = (p.billing_details ?? {}) as { name?: unknown; email?: unknown }
  for (const field of ['name', 'email'] as const) {
    if (typeof billing[field] !== 'string' || billing[field] === '') {
      const param = `billing_details[${field}]`
      throw tableError('parameter_missing', { param }, { param })
    }
  }
  const compact = iban.replace(/\s+/g, '').toUpperCase()
  return {
    type: 'sepa_debit',
    sepa_debit: {
      bank_code: compact.slice(4, 9),
      branch_code: '',
      country: compact.slice(0, 2),
      fingerprint: compact.slice(-16),
      generated_from: { charge: null, setup_attempt: null },
      last4: compact.slice(-4),
    },
  }
}
