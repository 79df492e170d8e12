import type { ResourceDeclaration } from '../engine/declaration.js'
import { accountLinks } from './account-links.js'
import { accountSessions } from './account-sessions.js'
import { accounts } from './accounts.js'
import { applicationFees } from './application-fees.js'
import { balance } from './balance.js'
import { balanceTransactions } from './balance-transactions.js'
import { billingAlerts } from './billing-alerts.js'
import { billingMeters } from './billing-meters.js'
import { billingPortalConfigurations } from './billing-portal-configurations.js'
import { billingPortalSessions } from './billing-portal-sessions.js'
import { customerCashBalanceTransactions } from './cash-balance.js'
import { charges } from './charges.js'
import { checkoutLineItems, checkoutSessions } from './checkout-sessions.js'
import { coupons } from './coupons.js'
import { creditBalanceSummary, creditBalanceTransactions } from './credit-balance.js'
import { creditGrants } from './credit-grants.js'
import { creditNotes } from './credit-notes.js'
import { customerBalanceTransactions } from './customer-balance-transactions.js'
import { customerSessions } from './customer-sessions.js'
import { customers } from './customers.js'
import { discounts } from './discounts.js'
import { disputes } from './disputes.js'
import { earlyFraudWarnings } from './early-fraud-warnings.js'
import { activeEntitlements, entitlementFeatures, productFeatures } from './entitlements.js'
import { ephemeralKeys } from './ephemeral-keys.js'
import { eventDestinations } from './event-destinations.js'
import { events } from './events.js'
import { externalAccounts } from './external-accounts.js'
import { feeRefunds } from './fee-refunds.js'
import { files } from './files.js'
import { invoiceItems } from './invoice-items.js'
import { invoicePayments } from './invoice-payments.js'
import { invoices } from './invoices.js'
import { loginLinks } from './login-links.js'
import { mandates } from './mandates.js'
import { meterEventAdjustmentsV1, meterEventAdjustmentsV2 } from './meter-event-adjustments.js'
import { meterEventSessions, meterEventStream } from './meter-event-stream.js'
import { meterEventsV1, meterEventsV2 } from './meter-events.js'
import { paymentIntents } from './payment-intents.js'
import { paymentLinks } from './payment-links.js'
import { paymentMethods } from './payment-methods.js'
import { payouts } from './payouts.js'
import { persons } from './persons.js'
import { plans } from './plans.js'
import type { ResourcePorts } from './ports.js'
import { prices } from './prices.js'
import { products } from './products.js'
import { promotionCodes } from './promotion-codes.js'
import { quotes } from './quotes.js'
import { refunds } from './refunds.js'
import { setupIntents } from './setup-intents.js'
import { shippingRates } from './shipping-rates.js'
import { subscriptionItems } from './subscription-items.js'
import { subscriptionSchedules } from './subscription-schedules.js'
import { subscriptions } from './subscriptions.js'
import { taxCalculations } from './tax-calculations.js'
import { taxIds } from './tax-ids.js'
import { taxRates } from './tax-rates.js'
import { taxTransactions } from './tax-transactions.js'
import { testClocks } from './test-clocks.js'
import { tokens } from './tokens.js'
import { transferReversals } from './transfer-reversals.js'
import { transfers } from './transfers.js'
import { v2Events } from './v2-events.js'
import { webhookEndpoints } from './webhook-endpoints.js'

/** Every resource the engine serves, one declaration per file. */
export const declarations: readonly ResourceDeclaration<ResourcePorts>[] = [
  customers,
  products,
  prices,
  coupons,
  promotionCodes,
  subscriptions,
  subscriptionItems,
  invoices,
  invoiceItems,
  setupIntents,
  checkoutSessions,
  checkoutLineItems,
  taxIds,
  customerBalanceTransactions,
  refunds,
  transfers,
  transferReversals,
  applicationFees,
  feeRefunds,
  billingPortalConfigurations,
  billingPortalSessions,
  customerSessions,
  ephemeralKeys,
  paymentLinks,
  payouts,
  files,
  webhookEndpoints,
  accountLinks,
  accountSessions,
  taxRates,
  plans,
  shippingRates,
  testClocks,
  discounts,
  events,
  v2Events,
  eventDestinations,
  accounts,
  persons,
  externalAccounts,
  loginLinks,
  balance,
  balanceTransactions,
  paymentIntents,
  paymentMethods,
  charges,
  tokens,
  disputes,
  earlyFraudWarnings,
  mandates,
  customerCashBalanceTransactions,
  billingMeters,
  meterEventsV1,
  meterEventsV2,
  meterEventAdjustmentsV1,
  meterEventAdjustmentsV2,
  meterEventSessions,
  meterEventStream,
  invoicePayments,
  creditNotes,
  subscriptionSchedules,
  creditGrants,
  creditBalanceTransactions,
  creditBalanceSummary,
  billingAlerts,
  taxCalculations,
  taxTransactions,
  quotes,
  entitlementFeatures,
  productFeatures,
  activeEntitlements,
]
