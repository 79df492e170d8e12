import type { Billing } from '../billing/billing.js'
import type { Meters } from '../meters/meters.js'
import type { Charges } from '../payment-intents/charges.js'
import type { PaymentMethods } from '../payment-intents/payment-methods.js'

/** The service areas outside the engine that resource behaviours use. */
export interface ResourcePorts {
  readonly paymentMethods: PaymentMethods
  readonly charges: Charges
  readonly meters: Meters
  /** The billing loop (made after the engine, so read when a behaviour runs). */
  readonly billing: Billing
}
