import type { ErrorRow } from './error-row.js'
import { INVALID, row } from './error-row.js'

/**
 * The refusals of money movement: cards and payment methods, payment and setup intents, charges, refunds, disputes, payouts, transfers, balances, Connect accounts and off-session payments. Sorted by code; part of `ERRORS`.
 *
 * @example
 * PAYMENT_ERRORS.card_declined.type // 'card_error'
 */
export const PAYMENT_ERRORS = {
  already_canceled: row(400, 'already_canceled', 'The off-session payment {id} is already canceled.'),
  amount_too_large: row(400, INVALID, 'Amount must be no more than {max} {currency} minor units.'),
  amount_too_small: row(400, INVALID, 'Amount must be at least {min} {currency} minor units.'),
  /** A refund of an application fee already refunded whole. */
  application_fee_already_refunded: row(400, INVALID, 'Application fee {fee} has already been fully refunded.'),
  /** `application_fee_amount` on a payment that pays no connected account. */
  application_fee_needs_connect: row(
    400,
    INVALID,
    'Can only apply an application_fee_amount when the PaymentIntent is attempting a direct payment (using an OAuth key or Stripe-Account header) or destination payment (using `transfer_data[destination]`).',
  ),
  authentication_required: row(402, 'card_error', 'Your card was declined. This transaction requires authentication.'),
  balance_insufficient: row(
    400,
    INVALID,
    'You have insufficient funds in your account for this {what}: {amount} {currency} minor units requested, {available} available. Funds of a test charge become available after 2 days, or at once with pm_card_bypassPending.',
  ),
  /** `amount_to_capture` outside what the intent holds (under the provider's `amount_too_large`). */
  capture_amount_out_of_range: row(400, INVALID, 'amount_to_capture must be between 1 and {max}.', 'provider', {
    code: 'amount_too_large',
  }),
  card_declined: row(402, 'card_error', 'Your card was declined.'),
  charge_already_captured: row(400, INVALID, 'Charge {charge} has already been captured.'),
  charge_already_refunded: row(400, INVALID, 'Charge {charge} has already been refunded.'),
  /** A capture of more than the charge authorised (under the provider's `amount_too_large`). */
  charge_capture_amount_too_large: row(
    400,
    INVALID,
    'Amount to capture ({amount}) must be between 1 and the authorized amount of charge {charge} ({max}).',
    'provider',
    { code: 'amount_too_large' },
  ),
  /** A customer's bank account source verified a second time. */
  bank_account_already_verified: row(400, INVALID, 'This bank account has already been verified.'),
  /** Micro-deposit amounts that are not the ones sent to a customer's bank account source. */
  bank_account_verification_failed: row(
    400,
    INVALID,
    'The amounts provided do not match the amounts that were sent to the bank account.',
    'provider',
  ),
  /** A charge naming a customer with nothing to charge (the provider's wording, under `missing`). */
  charge_customer_no_source: row(400, INVALID, 'Cannot charge a customer that has no active card', 'provider', {
    code: 'missing',
  }),
  charge_disputed: row(400, INVALID, 'Charge {charge} has been charged back; cannot issue a refund.'),
  charge_not_captured: row(
    400,
    INVALID,
    'Charge {charge} has not been captured; cancel its PaymentIntent to release the authorization instead.',
    'provider',
    { code: 'parameter_invalid' },
  ),
  charge_not_succeeded: row(400, INVALID, 'Charge {charge} has not succeeded, so it cannot be refunded.', 'provider', {
    code: 'parameter_invalid',
  }),
  /** A charge naming neither a source nor a customer (the provider's wording). */
  charge_source_missing: row(400, INVALID, 'Must provide source or customer.', 'provider', { code: 'parameter_missing' }),
  /** A publishable-key request whose `client_secret` is not the intent's (the provider's wording). */
  client_secret_mismatch: row(
    400,
    INVALID,
    'The client_secret provided does not match the client_secret associated with the {kind}.',
  ),
  /** A Connect amount (`application_fee_amount`, `transfer_data[amount]`) above the payment's amount. */
  connect_amount_too_large: row(
    400,
    INVALID,
    '{param} cannot be greater than the amount of the payment ({amount}).',
    'provider',
    {
      code: 'parameter_invalid',
    },
  ),
  /** A balance transaction in another currency than the customer's balance (decision: refused, naming both). */
  customer_balance_currency_mismatch: row(
    400,
    INVALID,
    "This customer's balance is in {have}; a balance transaction in {currency} cannot be added to it.",
    'simulator',
    { code: 'parameter_invalid' },
  ),
  /** A customer balance applied with nothing in it. */
  customer_cash_balance_empty: row(
    400,
    INVALID,
    'Customer {customer} has no cash balance in {currency} to apply; fund it by bank transfer first.',
    'simulator',
  ),
  /** More applied than the intent needs or the customer's cash balance holds. */
  customer_cash_balance_short: row(
    400,
    INVALID,
    'Cannot apply {amount}: the PaymentIntent needs {remaining} and the customer cash balance holds {available}.',
    'simulator',
  ),
  customer_currency_mismatch: row(
    400,
    INVALID,
    'You cannot combine currencies on a single customer. This customer has an active subscription or pending invoice item with currency {have}; this {what} is in {currency}.',
    'provider',
    { code: 'parameter_invalid' },
  ),
  /** A change to a dispute that no longer waits for an answer (under review or closed). */
  dispute_not_open: row(
    400,
    INVALID,
    'Dispute {id} has a status of {status}: only a dispute that needs a response can be {past}.',
    'simulator',
  ),
  /** An ephemeral key must be for exactly one object. */
  ephemeral_key_target: row(
    400,
    INVALID,
    'You must pass exactly one of customer, issuing_card, nonce or verification_session when creating an ephemeral key.',
  ),
  /** An ephemeral key asked for without an explicit API version. */
  ephemeral_key_version_missing: row(
    400,
    INVALID,
    'You must specify an API version when creating an ephemeral key: send the version header with the version your mobile SDK uses.',
  ),
  /** The same key sent again while its first request is still running (409, the provider's wording). */
  /** Deleting the default external account of the account's own currency. */
  external_account_default_delete: row(
    400,
    INVALID,
    'You cannot delete the default external account for your default currency. Please make another external account the default using the `default_for_currency` param, and then delete this one.',
  ),
  /** An application fee refund above what is left of the fee (under the provider's `amount_too_large`). */
  fee_refund_too_large: row(
    400,
    INVALID,
    'Refund amount ({amount}) is greater than the application fee amount remaining ({left}).',
    'provider',
    { code: 'amount_too_large' },
  ),
  incorrect_number: row(402, 'card_error', 'Your card number is incorrect.'),
  /** An increment to no more than is already authorised (under the provider's `amount_too_small`). */
  increment_amount_too_small: row(
    400,
    INVALID,
    'The amount must be greater than the currently authorized amount ({current}).',
    'provider',
    { code: 'amount_too_small' },
  ),
  /** An increment of an intent whose card authorisation cannot be raised (under `payment_intent_unexpected_state`). */
  incremental_authorization_unavailable: row(
    400,
    INVALID,
    'This PaymentIntent does not support incremental authorizations: confirm a manual-capture card payment with payment_method_options[card][request_incremental_authorization]=if_available.',
    'provider',
    { code: 'payment_intent_unexpected_state' },
  ),
  /** A card given as an external account that cannot receive payouts (not a debit card). */
  invalid_card_type: row(
    400,
    INVALID,
    'The card provided as an external account is not supported for payouts. Provide a non-prepaid debit card instead.',
  ),
  invalid_expiry_month: row(402, 'card_error', "Your card's expiration month is invalid."),
  invalid_expiry_year: row(402, 'card_error', "Your card's expiration year is invalid."),
  /** An off-session payment naming a payment method saved to another customer. */
  invalid_payment_method: row(
    400,
    INVALID,
    'The payment method {id} is not attached to customer {customer}; off-session payments charge a saved payment method of the customer.',
  ),
  /** A login link asked for an account that is not an Express account. */
  login_link_not_express: row(
    400,
    INVALID,
    'Cannot create a login link for account {id}: login links are only for Express accounts.',
  ),
  microdeposit_amounts_invalid: row(
    400,
    INVALID,
    'Provide exactly two microdeposit amounts, or the descriptor code of the microdeposit.',
    'provider',
    { code: 'payment_method_microdeposit_verification_amounts_invalid' },
  ),
  microdeposit_amounts_mismatch: row(
    400,
    INVALID,
    'The amounts provided do not match the amounts that were sent to the bank account.',
    'provider',
    { code: 'payment_method_microdeposit_verification_amounts_mismatch' },
  ),
  microdeposit_descriptor_mismatch: row(
    400,
    INVALID,
    'The verification code provided does not match the one sent to the bank account.',
    'provider',
    { code: 'payment_method_microdeposit_verification_descriptor_code_mismatch' },
  ),
  not_cancelable: row(
    400,
    'not_cancelable',
    'The off-session payment {id} cannot be canceled because its status is {status}; only pending, pending_retry or requires_capture payments can be canceled.',
  ),
  payment_intent_authentication_failure: row(
    400,
    INVALID,
    'The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.',
  ),
  /** A confirm of an intent that has no payment method and is given none (under `payment_intent_unexpected_state`). */
  payment_intent_confirm_missing_payment_method: row(
    400,
    INVALID,
    'You cannot confirm this PaymentIntent because it is missing a payment method. Update it with a payment_method, or pass payment_method to confirm.',
    'provider',
    { code: 'payment_intent_unexpected_state' },
  ),
  /** `confirm=true` without a payment method (under the provider's `payment_intent_unexpected_state`). */
  payment_intent_no_payment_method: row(
    400,
    INVALID,
    'You cannot confirm this PaymentIntent because it has no payment method: pass payment_method with confirm=true.',
    'provider',
    { code: 'payment_intent_unexpected_state' },
  ),
  payment_intent_unexpected_state: row(
    400,
    INVALID,
    'You cannot {action} this PaymentIntent because it has a status of {status}. Only a PaymentIntent with one of the following statuses may be {past}: {allowed}.',
  ),
  /** An attach of a payment method another customer holds (under `payment_method_unexpected_state`). */
  payment_method_already_attached: row(
    400,
    INVALID,
    'The payment method you provided has already been attached to a customer ({customer}).',
    'provider',
    { code: 'payment_method_unexpected_state' },
  ),
  /** A payment method named for a customer it is not attached to (the provider's wording, a 400 `resource_missing`). */
  payment_method_not_attached: row(400, INVALID, "No such PaymentMethod: '{id}' attached to this customer.", 'provider', {
    code: 'resource_missing',
  }),
  /** A payment method named for a customer other than the one it is saved to (under `payment_method_unexpected_state`). */
  payment_method_other_customer: row(
    400,
    INVALID,
    'The provided PaymentMethod {id} belongs to customer {customer}; pass that customer with it.',
    'provider',
    { code: 'payment_method_unexpected_state' },
  ),
  /** A detach of a payment method that is attached to no customer. */
  payment_method_unexpected_state: row(400, INVALID, 'The payment method {id} is not attached to a customer.'),
  /** An update of a payment method saved to no customer (the provider's wording, under `payment_method_unexpected_state`). */
  payment_method_update_unattached: row(
    400,
    INVALID,
    'You must save this PaymentMethod to a customer before you can update it.',
    'provider',
    { code: 'payment_method_unexpected_state' },
  ),
  /** A payout that is no longer pending (paid, canceled, failed): only a pending one can be canceled. */
  payout_not_cancelable: row(
    400,
    INVALID,
    'Payout {id} cannot be canceled because its status is {status}. Only a pending payout can be canceled.',
    'simulator',
  ),
  /** A reversal of a payout that is not paid, already reversed, a reversal itself, or the platform's own. */
  payout_not_reversible: row(400, INVALID, 'Payout {id} cannot be reversed: {reason}.', 'simulator'),
  /** A refund over what is left to refund (the provider's wording, under `amount_too_large`). */
  refund_amount_too_large: row(400, INVALID, 'Refund amount ({amount}) is greater than {than} ({left})', 'provider', {
    code: 'amount_too_large',
  }),
  refund_no_successful_charge: row(
    400,
    INVALID,
    'This PaymentIntent ({id}) does not have a successful charge to refund.',
    'provider',
    { code: 'parameter_invalid' },
  ),
  /** A cancel of a refund not waiting for the customer (the provider cancels only `requires_action` refunds). */
  refund_not_cancelable: row(
    400,
    INVALID,
    'Refund {id} cannot be canceled because it has a status of {status}. Only a refund with a status of requires_action can be canceled.',
    'simulator',
  ),
  /** Expiring (a test helper) a refund that is not waiting for the customer. */
  refund_not_expirable: row(
    400,
    INVALID,
    'Refund {id} cannot be expired because it has a status of {status}. Only a refund with a status of requires_action can be expired.',
    'simulator',
  ),
  /** A refund naming neither a charge nor a payment intent (the provider's wording). */
  refund_source_missing: row(
    400,
    INVALID,
    'One of the following params should be provided for this request: payment_intent or charge.',
    'provider',
    { code: 'parameter_invalid' },
  ),
  /** The customer failed the 3-D Secure challenge of a setup intent (its `last_setup_error`). */
  setup_intent_authentication_failure: row(
    400,
    INVALID,
    'The latest attempt to set up the payment method has failed because authentication failed.',
  ),
  /** The provider's refusal of an action a setup intent's status does not allow. */
  setup_intent_unexpected_state: row(
    400,
    INVALID,
    'You cannot {action} this SetupIntent because it has a status of {status}. Only a SetupIntent with one of the following statuses may be {past}: {allowed}.',
  ),
  /** Verifying a customer's source that is not a bank account (cards are checked when attached). */
  source_not_verifiable: row(400, INVALID, 'The source {id} is not a bank account and cannot be verified.'),
  token_already_used: row(400, INVALID, 'You cannot use a Stripe token more than once: {id}.'),
  /** A reversal of a transfer already reversed whole. */
  transfer_already_reversed: row(400, INVALID, 'Transfer {transfer} has already been fully reversed.'),
  /** A reversal asking for more than is left of its transfer (under the provider's `amount_too_large`). */
  transfer_reversal_too_large: row(
    400,
    INVALID,
    'Amount requested to reverse ({amount}) is greater than the transfer amount remaining ({left}).',
    'provider',
    { code: 'amount_too_large' },
  ),
} as const satisfies Record<string, ErrorRow>
