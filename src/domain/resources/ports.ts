import type { Charges } from '../payment-intents/charges.js'
import type { PaymentMethods } from '../payment-intents/payment-methods.js'

/** The service areas outside the engine that resource behaviours use. */
export interface ResourcePorts {
  readonly paymentMethods: PaymentMethods
  readonly charges: Charges
}
