import type { Accounts } from '../accounts/accounts.js'
import type { Billing } from '../billing/billing.js'
import type { Ledger } from '../ledger/ledger.js'
import type { MeteringPorts } from '../meters/metering-ports.js'
import type { Meters } from '../meters/meters.js'
import type { Charges } from '../payment-intents/charges.js'
import type { PaymentMethods } from '../payment-intents/payment-methods.js'

/** The service areas outside the engine that resource behaviours use. */
export interface ResourcePorts {
  readonly paymentMethods: PaymentMethods
  readonly charges: Charges
  readonly meters: Meters
  /** Meter events, the stream's sessions and meter ids, for the metering behaviours. */
  readonly metering: MeteringPorts
  /** Balances and postings: refunds, payouts and transfers move money. */
  readonly ledger: Ledger
  /** Transfers look up their destination account. */
  readonly accounts: Pick<Accounts, 'get'>
  /** The billing loop (made after the engine, so read when a behaviour runs). */
  readonly billing: Billing
}
