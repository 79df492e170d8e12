import { billingAlerts } from './billing/billing-alerts-resource.js'
import { coupons } from './billing/catalog/coupons-resource.js'
import { discounts } from './billing/catalog/discounts-resource.js'
import { plans } from './billing/catalog/plans-resource.js'
import { prices } from './billing/catalog/prices-resource.js'
import { products } from './billing/catalog/products-resource.js'
import { promotionCodes } from './billing/catalog/promotion-codes-resource.js'
import { creditNotes } from './billing/credit-notes/credit-notes-resource.js'
import { creditBalanceSummary, creditBalanceTransactions } from './billing/credits/credit-balance-resource.js'
import { creditGrants } from './billing/credits/credit-grants-resource.js'
import { activeEntitlements, entitlementFeatures, productFeatures } from './billing/entitlements-resource.js'
import { invoiceItems } from './billing/invoices/invoice-items-resource.js'
import { invoicePayments } from './billing/invoices/invoice-payments-resource.js'
import { invoices } from './billing/invoices/invoices-resource.js'
import { billingPortalConfigurations } from './billing/portal/billing-portal-configurations-resource.js'
import { billingPortalSessions } from './billing/portal/billing-portal-sessions-resource.js'
import { quotes } from './billing/quotes/quotes-resource.js'
import { subscriptionItems } from './billing/subscriptions/subscription-items-resource.js'
import { subscriptionSchedules } from './billing/subscriptions/subscription-schedules-resource.js'
import { subscriptions } from './billing/subscriptions/subscriptions-resource.js'
import { testClocks } from './billing/test-clocks-resource.js'
import { checkoutLineItems, checkoutSessions } from './checkout/checkout-sessions-resource.js'
import { paymentLinks } from './checkout/payment-links-resource.js'
import { shippingRates } from './checkout/shipping-rates-resource.js'
import { accountLinks } from './connect/account-links-resource.js'
import { accountSessions } from './connect/account-sessions-resource.js'
import { accounts } from './connect/accounts-resource.js'
import { applicationFees } from './connect/application-fees-resource.js'
import { externalAccounts } from './connect/external-accounts-resource.js'
import { feeRefunds } from './connect/fee-refunds-resource.js'
import { files } from './connect/files-resource.js'
import { loginLinks } from './connect/login-links-resource.js'
import { persons } from './connect/persons-resource.js'
import { transferReversals } from './connect/transfer-reversals-resource.js'
import { transfers } from './connect/transfers-resource.js'
import { customerCashBalanceTransactions } from './customers/cash-balance-resource.js'
import { customerBalanceTransactions } from './customers/customer-balance-transactions-resource.js'
import { customerSessions } from './customers/customer-sessions-resource.js'
import { customerSources } from './customers/customer-sources-resource.js'
import { customers } from './customers/customers-resource.js'
import { ephemeralKeys } from './customers/ephemeral-keys-resource.js'
import type { ResourceDeclaration } from './engine/declaration.js'
import { eventDestinations } from './events/destinations/event-destinations-resource.js'
import { webhookEndpoints } from './events/destinations/webhook-endpoints-resource.js'
import { events } from './events/events-resource.js'
import { v2Events } from './events/v2-events-resource.js'
import { balance } from './ledger/balance-resource.js'
import { balanceTransactions } from './ledger/balance-transactions-resource.js'
import { payouts } from './ledger/payouts-resource.js'
import { billingMeters } from './meters/billing-meters-resource.js'
import { meterEventAdjustmentsV1, meterEventAdjustmentsV2 } from './meters/meter-event-adjustments-resource.js'
import { meterEventSessions, meterEventStream } from './meters/meter-event-stream-resource.js'
import { meterEventsV1, meterEventsV2 } from './meters/meter-events-resource.js'
import { charges } from './payments/charges-resource.js'
import { disputes } from './payments/disputes/disputes-resource.js'
import { earlyFraudWarnings } from './payments/disputes/early-fraud-warnings-resource.js'
import { mandates } from './payments/mandates-resource.js'
import { paymentIntents } from './payments/payment-intents-resource.js'
import { paymentMethods } from './payments/payment-methods-resource.js'
import { refunds } from './payments/refunds/refunds-resource.js'
import { setupIntents } from './payments/setup-intents/setup-intents-resource.js'
import { tokens } from './payments/tokens-resource.js'
import type { ResourcePorts } from './resource-ports.js'
import { taxCalculations } from './tax/tax-calculations-resource.js'
import { taxIds } from './tax/tax-ids-resource.js'
import { taxRates } from './tax/tax-rates-resource.js'
import { taxTransactions } from './tax/tax-transactions-resource.js'

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
  customerSources,
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
