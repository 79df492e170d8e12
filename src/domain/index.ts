// biome-ignore-all assist/source/organizeImports: the internal-only re-exports stay statements of their own, so the build strips them
/**
 * The domain as the layers above the simulator see it: the few service facts the harness and
 * the CLI read (signatures, retry offsets, delivery timing, refusals).
 *
 * The harness, the fixture and the CLI import a lower layer only through its index (checked by the
 * layering test), so what they rely on is listed here, in one place.
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
export { renderedEvent } from './events/delivery/payload.js'
export type { EventsFrom } from './events/destinations/destination.js'
export { isLoopback, isThinType } from './events/destinations/destination-rules.js'
export type { LimitRowSpec } from './limits/limits-option.js'
/** @internal */
export { limitsSchemas } from './limits/limits-option.js'
export { engineBillingSource } from './meters/billed-usage.js'
export { AUTHENTICATE_REDIRECT_BASE } from './payments/payment-intent-redirect.js'
export { ServiceError } from './service-error.js'
