import type { Mode } from '../mode.js'
import type { MeterEvents } from './meter-event-types.js'
import type { Meters } from './meters.js'
import type { Sessions } from './stream-sessions.js'

/**
 * What the metering behaviours (meters, meter events, the stream and its sessions, adjustments)
 * use besides the engine.
 *
 * @example
 * const metering: MeteringPorts = { meters, meterEvents, sessions, meterId: (mode) => ids.next(`mtr_${mode}`, 24), customerKey }
 */
export interface MeteringPorts {
  readonly meters: Meters
  readonly meterEvents: MeterEvents
  readonly sessions: Sessions
  /** A new meter id of the mode (`mtr_test_…`, as the provider's). */
  meterId(mode: Mode): string
  /** The customer payload key a meter gets when none is given (it follows the header prefix). */
  readonly customerKey: string
}
