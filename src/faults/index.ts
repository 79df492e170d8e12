/**
 * The fault layer as the layers above the simulator see it. The harness, the
 * fixture and the CLI import a lower layer only through its index (checked by the layering test),
 * so what they rely on is listed here, in one place.
 *
 * @example
 * import { faultKinds } from '#faults/index.js'
 */
export type { FaultController, FaultSource } from './fault-controller.js'
export { type FaultLogLine, faultLog } from './fault-log.js'
export {
  defaultFaultParams,
  type FaultParams,
  type ResolvedFaultPolicy,
  realisticRates,
  resolveFaultPolicy,
} from './fault-policy.js'
export {
  checkTarget,
  type FaultEntry,
  type FaultKind,
  type Faults,
  type FaultsInput,
  faultInjectionFields,
  faultKinds,
  faultSchemas,
  rateLimitReasons,
} from './faults-schema.js'
