/**
 * `service-sim`: the simulator (`createSimulator`), its clock, trace, faults, admin and snapshots,
 * and the webhook signature helpers.
 *
 * @module service-sim
 */
export type { InterceptOptions } from '#adapters/hosts.js'
export type { Interception } from '#adapters/intercept.js'
export { type ClockDriven, type RunOnClockOptions, runOnClock } from '#adapters/run-on-clock.js'
export type { DeliveryAdmin } from '#domain/events/delivery/delivery-admin.js'
export type {
  AttemptOutcome,
  AttemptTrigger,
  DeliveryAttempt,
  DeliveryRecord,
  DeliveryStatus,
} from '#domain/events/delivery/delivery-record.js'
export type { DeliveryTransport, TransportRequest, TransportResult } from '#domain/events/delivery/delivery-transport.js'
export type { EventBusEntry } from '#domain/events/delivery/event-bus.js'
export type { DeliveryFaults } from '#domain/events/delivery/receiver-failures.js'
export {
  type SignatureErrorCode,
  SignatureVerificationError,
  signatureHeader,
  type VerifyOptions,
  verifySignature,
} from '#domain/events/delivery/signature.js'
export type { TriggerOverrides } from '#domain/events/delivery/trigger.js'
export type { Destination } from '#domain/events/destinations/destination.js'
export type { BalanceTransaction } from '#domain/ledger/balance-transaction.js'
export type { CurrencyBalance, Ledger } from '#domain/ledger/ledger.js'
export {
  DEFAULT_LIMITS,
  DEFAULT_LOCK_WAIT_MS,
  DEFAULT_READ_ALLOCATION,
  type ReadAllocationConfig,
} from '#domain/limits/default-limits.js'
export type { LimitKind, LimitRow, LimitScope, RateLimitedReason } from '#domain/limits/limit-row.js'
export type { LimitsAdmin } from '#domain/limits/limits-admin.js'
export type { LimitRowInput, LimitsOption } from '#domain/limits/limits-option.js'
export type { InternalLock, LockManager } from '#domain/locks/lock-manager.js'
export type { AdminMeterInput, MeterAdmin, MeterSummary } from '#domain/meters/meter-admin.js'
export { METER_PROCESSING_DELAY, type MeterEventStats } from '#domain/meters/meter-events.js'
export type { OffSessionPaymentStatus } from '#domain/payments/off-session/off-session-payment.js'
export type { PaymentIntentStatus } from '#domain/payments/payment-intent.js'
export type { AuthenticationCompletion, PaymentIntentAdmin } from '#domain/payments/payment-intent-admin.js'
export { TEST_CARDS } from '#domain/payments/payment-method.js'
export { ServiceError } from '#domain/service-error.js'
export type { FaultController } from '#faults/fault-controller.js'
export type { FaultsInput } from '#faults/fault-policy.js'
export type { ReceiverHandler, Receivers } from '#http/receivers.js'
export type { Clock } from '#kernel/clock.js'
export { type HeaderNames, headerNames } from '#kernel/header-names.js'
export type { Trace, TraceEntry, TraceKind, TraceKinds } from '#kernel/trace.js'
export type { Admin } from '#simulator/admin.js'
export type {
  CausedTriggerOptions,
  CausingTrigger,
  GeneratedTriggerOverrides,
  TriggeredEvent,
} from '#simulator/caused-trigger.js'
export {
  createSimulator,
  DEFAULT_API_VERSION,
  type Platform,
  type Simulator,
  type SimulatorOptions,
} from '#simulator/create-simulator.js'
