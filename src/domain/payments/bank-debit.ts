import type { Json } from '../engine/list.js'
import type { CardOutcome, PaymentMethod } from './payment-method.js'

/** The provider's test microdeposit amounts, in cents, and descriptor code. */
export const TEST_MICRODEPOSITS = { amounts: [32, 45], descriptorCode: 'SM11AA' } as const

/**
 * A test bank account: a US account number (`us_bank_account`) or an IBAN (`sepa_debit`), how its
 * debit ends (the charge's `failure_code` and `failure_message`, or none: it succeeds), and, for
 * the provider's "delayed" accounts, how long its debit stays `processing`.
 */
export interface TestBankAccount {
  readonly accountNumber?: string
  readonly iban?: string
  readonly failure?: { readonly code: string; readonly message: string }
  /** Seconds the debit stays `processing` ("after at least three minutes"); none: it settles at once. */
  readonly settleAfter?: number
}

/** How long the provider's delayed SEPA test IBANs stay `processing`: "at least three minutes". */
const SEPA_DELAY_SECONDS = 180

/** A debit the bank returned: the charge's `failure_code` and `failure_message`. */
const returned = (code: string, message: string) => ({ code, message })

/**
 * The provider's test bank accounts, by the payment method token that stands for each: US accounts
 * (routing number 110000000; `000123456789` succeeds, the others are debited and then fail) and
 * SEPA IBANs (success, failure, each also "delayed"). Every other account number or IBAN succeeds.
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
  // The provider's SEPA Direct Debit test IBANs (Austria): at once, or after at least three minutes.
  pm_sepaDebit_success_at: { iban: 'AT611904300234573201' },
  pm_sepaDebit_successDelayed_at: { iban: 'AT321904300235473204', settleAfter: SEPA_DELAY_SECONDS },
  pm_sepaDebit_failed_at: { iban: 'AT861904300235473202', failure: returned('generic_decline', 'The payment was declined.') },
  pm_sepaDebit_failedDelayed_at: {
    iban: 'AT051904300235473205',
    failure: returned('generic_decline', 'The payment was declined.'),
    settleAfter: SEPA_DELAY_SECONDS,
  },
})

/**
 * The test account a bank payment method was made with, known by its fingerprint (which ends with
 * the US account number, or is the IBAN's last 16 characters).
 *
 * @example
 * testBankAccountOf(pm)?.settleAfter // 180 for a payment method made with AT321904300235473204
 */
export function testBankAccountOf(pm: PaymentMethod): TestBankAccount | undefined {
  const details = (pm.us_bank_account ?? pm.sepa_debit) as { fingerprint?: unknown } | null | undefined
  const fingerprint = String(details?.fingerprint ?? '')
  if (fingerprint === '') return undefined
  return Object.values(TEST_BANK_ACCOUNTS).find((account) =>
    pm.type === 'sepa_debit'
      ? account.iban !== undefined && fingerprint === account.iban.slice(-16)
      : account.accountNumber !== undefined && fingerprint.endsWith(account.accountNumber),
  )
}

/**
 * How the debit of a bank account payment method ends: the failure of the test account it was
 * made with (known by its fingerprint, which ends with the account number), else success.
 *
 * @example
 * bankDebitOutcome(pm).kind // 'decline' for an account made with 000111111113
 */
export function bankDebitOutcome(pm: PaymentMethod): CardOutcome {
  const failure = testBankAccountOf(pm)?.failure
  if (failure === undefined) return { kind: 'succeed' }
  return { kind: 'decline', code: failure.code, declineCode: null, message: failure.message }
}

/**
 * How long (ms) the debit of a bank payment method stays `processing`: the delay of the provider's
 * "delayed" test IBANs, else none (it settles at the instant it started, once that work runs).
 *
 * @example
 * debitDelay(pm) // 180_000 for a payment method made with AT321904300235473204
 */
export function debitDelay(pm: PaymentMethod): number {
  return (testBankAccountOf(pm)?.settleAfter ?? 0) * 1000
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
 * The provider's fee of a bank debit: ACH's, or SEPA Direct Debit's (0.8%, at most 6.00).
 *
 * @example
 * debitFee(pm, 2000) // 16
 */
export function debitFee(pm: PaymentMethod, amount: number): number {
  return pm.type === 'sepa_debit' ? Math.min(Math.round((amount * 8) / 1000), 600) : achFee(amount)
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
 * A bank debit charge's `payment_method_details` (`us_bank_account` or `sepa_debit`).
 *
 * @example
 * bankDetails(pm, 'mandate_1').type // 'us_bank_account' (or 'sepa_debit')
 */
export function bankDetails(pm: PaymentMethod, mandate: string | null): Record<string, unknown> {
  if (pm.type === 'sepa_debit') {
    const sepa = (pm.sepa_debit ?? {}) as Record<string, unknown>
    const fields = ['bank_code', 'branch_code', 'country', 'fingerprint', 'last4'] as const
    return { type: 'sepa_debit', sepa_debit: { ...Object.fromEntries(fields.map((f) => [f, sepa[f] ?? null])), mandate } }
  }
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
