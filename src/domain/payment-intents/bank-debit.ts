import type { Json } from '../engine/list.js'
import type { PaymentMethod } from './payment-method.js'

/** The provider's test microdeposit amounts, in cents, and descriptor code. */
export const TEST_MICRODEPOSITS = { amounts: [32, 45], descriptorCode: 'SM11AA' } as const

/** Days until microdeposits arrive in the customer's account. */
const ARRIVAL_DAYS = 2

/**
 * The provider's ACH Direct Debit fee: 0.8%, at most 5.00.
 *
 * @example
 * achFee(2000) // 16
 */
export function achFee(amount: number): number {
  return Math.min(Math.round((amount * 8) / 1000), 500)
}

/**
 * The `verify_with_microdeposits` action of an intent waiting for its bank account to be verified.
 *
 * @example
 * microdepositAction(pi, now).type // 'verify_with_microdeposits'
 */
export function microdepositAction(p: Json, now: number): Record<string, unknown> {
  return {
    type: 'verify_with_microdeposits',
    verify_with_microdeposits: {
      arrival_date: now + ARRIVAL_DAYS * 86_400,
      hosted_verification_url: `https://payments.stripe.com/microdeposit/pacs_test_${p.id.slice(3)}`,
      microdeposit_type: 'amounts',
    },
  }
}

/**
 * Whether a verification request matches the test microdeposits: amounts 32 and 45 (either order)
 * or descriptor code `SM11AA`; `undefined` when it gives neither (or not two amounts).
 *
 * @example
 * microdepositsMatch({ amounts: [32, 45] }) // true
 */
export function microdepositsMatch(params: Readonly<Record<string, unknown>>): boolean | undefined {
  if (typeof params.descriptor_code === 'string') return params.descriptor_code === TEST_MICRODEPOSITS.descriptorCode
  const amounts = params.amounts
  if (!Array.isArray(amounts) || amounts.length !== 2) return undefined
  const sorted = amounts.map(Number).sort((a, b) => a - b)
  return sorted[0] === TEST_MICRODEPOSITS.amounts[0] && sorted[1] === TEST_MICRODEPOSITS.amounts[1]
}

/**
 * A bank debit charge's `payment_method_details`.
 *
 * @example
 * bankDetails(pm, 'mandate_1').type // 'us_bank_account'
 */
export function bankDetails(pm: PaymentMethod, mandate: string | null): Record<string, unknown> {
  const bank = (pm.us_bank_account ?? {}) as Record<string, unknown>
  return {
    type: 'us_bank_account',
    us_bank_account: {
      account_holder_type: bank.account_holder_type ?? null,
      account_type: bank.account_type ?? null,
      bank_name: bank.bank_name ?? null,
      expected_debit_date: null,
      fingerprint: bank.fingerprint ?? null,
      last4: bank.last4 ?? null,
      mandate,
      payment_reference: null,
      routing_number: bank.routing_number ?? null,
    },
  }
}

/**
 * The `display_bank_transfer_instructions` action of an intent paid from the customer's cash
 * balance: what is still to be transferred, and the reference to quote.
 *
 * @example
 * transferAction(pi, 2000).display_bank_transfer_instructions // { amount_remaining: 2000, ... }
 */
export function transferAction(p: Json, remaining: number): Record<string, unknown> {
  return {
    type: 'display_bank_transfer_instructions',
    display_bank_transfer_instructions: {
      amount_remaining: remaining,
      currency: p.currency,
      financial_addresses: [],
      hosted_instructions_url: `https://payments.stripe.com/bank_transfers/instructions/${p.id.slice(3)}`,
      reference: p.id.slice(3, 15).toUpperCase(),
      type: 'us_bank_transfer',
    },
  }
}
