import type { Json } from '../engine/list.js'
import type { CardOutcome, PaymentMethod } from './payment-method.js'

/** The provider's test microdeposit amounts, in cents, and descriptor code. */
export const TEST_MICRODEPOSITS = { amounts: [32, 45], descriptorCode: 'SM11AA' } as const

/** How a debit from a test bank account ends: the charge's `failure_code` and `failure_message`, or none (it succeeds). */
export interface TestBankAccount {
  readonly accountNumber: string
  readonly failure?: { readonly code: string; readonly message: string }
}

/** A debit the bank returned: the charge's `failure_code` and `failure_message`. */
const returned = (code: string, message: string) => ({ code, message })

/**
 * The provider's test bank accounts (routing number 110000000), by the payment method token that
 * stands for each: `000123456789` succeeds, the others are debited and then fail. Every other
 * account number succeeds.
 *
 * @example
 * TEST_BANK_ACCOUNTS.pm_usBankAccount_accountClosed?.failure?.code // 'account_closed'
 */
export const TEST_BANK_ACCOUNTS: Readonly<Record<string, TestBankAccount>> = Object.assign(Object.create(null), {
  pm_usBankAccount: { accountNumber: '000123456789' },
  pm_usBankAccount_success: { accountNumber: '000123456789' },
  pm_usBankAccount_accountClosed: {
    accountNumber: '000111111113',
    failure: returned('account_closed', "The customer's bank account has been closed."),
  },
  pm_usBankAccount_noAccount: {
    accountNumber: '000111111116',
    failure: returned('no_account', "The customer's bank account could not be located."),
  },
  pm_usBankAccount_insufficientFunds: {
    accountNumber: '000222222227',
    failure: returned('insufficient_funds', "The customer's account has insufficient funds to cover this payment."),
  },
  pm_usBankAccount_debitNotAuthorized: {
    accountNumber: '000333333335',
    failure: returned('debit_not_authorized', 'The customer has notified their bank that this payment was unauthorized.'),
  },
})

/**
 * How the debit of a bank account payment method ends: the failure of the test account it was
 * made with (known by its fingerprint, which ends with the account number), else success.
 *
 * @example
 * bankDebitOutcome(pm).kind // 'decline' for an account made with 000111111113
 */
export function bankDebitOutcome(pm: PaymentMethod): CardOutcome {
  const fingerprint = String((pm.us_bank_account as { fingerprint?: unknown } | null)?.fingerprint ?? '')
  for (const account of Object.values(TEST_BANK_ACCOUNTS)) {
    if (account.failure !== undefined && fingerprint.endsWith(account.accountNumber)) {
      return { kind: 'decline', code: account.failure.code, declineCode: null, message: account.failure.message }
    }
  }
  return { kind: 'succeed' }
}

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
