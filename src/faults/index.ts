// biome-ignore-all assist/source/organizeImports: the internal-only re-exports stay statements of their own, so the build strips them
/**
 * The fault layer as the layers above the simulator see it: fault kinds, inputs and schemas.
 *
 * The harness, the fixture and the CLI import a lower layer only through its index (checked by the
 * layering test), so what they rely on is listed here, in one place.
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
export { type FaultEntry, type FaultKind, type Faults, type FaultsInput, faultKinds, rateLimitReasons } from './faults-schema.js'
/** @internal */
export { checkTarget, faultInjectionFields, faultSchemas } from './faults-schema.js'
/** @internal */
export { AFTER_KINDS, checkAfter, faultAfterRefusal } from './fault-after.js'
