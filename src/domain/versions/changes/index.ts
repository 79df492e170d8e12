import type { VersionChange } from '../change.js'
import { ASYNC_CAPTURE } from './async-capture.js'
import { AUTOMATIC_PAYMENT_METHODS } from './automatic-payment-methods.js'
import { BASIL_BILLING } from './basil-billing.js'
import { CHARGES_LIST } from './charges-list.js'
import { CHECKOUT_SHIPPING } from './checkout-shipping.js'
import { CUSTOMER_CREATION } from './customer-creation.js'
import { LEGACY_USAGE } from './legacy-usage.js'
import { PAYMENT_METHOD_TYPES } from './payment-method-types.js'

/**
 * The hand-written changes, newest first (answers walk back through them in this order; requests
 * walk forward in the reverse). A plain field added or removed needs no entry: the generated facts
 * cover it. Changes of meaning without a change of fields are marked `meaning`.
 *
 * @example
 * CHANGES.filter((c) => c.version > '2022-08-01').length
 */
export const CHANGES: readonly VersionChange[] = [
  PAYMENT_METHOD_TYPES,
  BASIL_BILLING,
  LEGACY_USAGE,
  ASYNC_CAPTURE,
  AUTOMATIC_PAYMENT_METHODS,
  CHARGES_LIST,
  CHECKOUT_SHIPPING,
  CUSTOMER_CREATION,
]
