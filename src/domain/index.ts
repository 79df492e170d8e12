/**
 * The domain as the layers above the simulator see it: what the harness and the CLI may use of the service's concepts. The harness, the
 * fixture and the CLI import a lower layer only through its index (checked by the layering test),
 * so what they rely on is listed here, in one place.
 *
 * @example
 * import { ServiceError } from '#domain/index.js'
 */
export { HOSTED_INVOICE_BASE } from './billing/hosted-invoice-url.js'
export type { Json } from './engine/list.js'
export { DELIVERY_TIMEOUT_MS, REPLAY_MIN_AGE_MS } from './events/delivery/constants.js'
export type { DeliveryTransport, TransportRequest, TransportResult } from './events/delivery/delivery-transport.js'
export { TEST_RETRY_OFFSETS_MS } from './events/delivery/retry-policy.js'
export { SignatureVerificationError, signatureHeader, verifySignature } from './events/delivery/signature.js'
export type { EventsFrom } from './events/destinations/destination.js'
export { isLoopback, isThinType } from './events/destinations/destination-rules.js'
export { type LimitRowSpec, limitsSchemas } from './limits/limits-option.js'
export { engineBillingSource } from './meters/billed-usage.js'
export { AUTHENTICATE_REDIRECT_BASE } from './payments/payment-intent-redirect.js'
export { ServiceError } from './service-error.js'
