// biome-ignore-all assist/source/organizeImports: the internal-only re-exports stay statements of their own, so the build strips them
/**
 * The kernel as the layers above the simulator see it: the clock, randomness, ids, the trace
 * and header names.
 *
 * The harness, the fixture and the CLI import a lower layer only through its index (checked by the
 * layering test), so what they rely on is listed here, in one place.
 *
 * @example
 * import { isoTime } from '#kernel/index.js'
 */
export { canonicalJson } from './canonical-json.js'
export { type Clock, createClock } from './clock.js'
export { closestName } from './closest-name.js'
export { formatDuration, parseDuration } from './duration.js'
/** @internal */
export { durationSchema } from './duration.js'
export { headerNames } from './header-names.js'
export { nextMacrotask } from './macrotask.js'
export { isoTime } from './time.js'
export type { TraceEntry } from './trace.js'
export { deliveryTraceKinds } from './trace-kinds.js'
export type { Assert, Equal } from './type-equality.js'
export { callerNow } from './wall-clock.js'
export { wallPause } from './wall-pause.js'
