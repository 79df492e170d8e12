import type { Clock } from '#kernel/clock.js'
import type { Ids } from '#kernel/ids.js'
import type { Rng } from '#kernel/rng.js'
import type { Scheduler } from '#kernel/scheduler.js'
import type { StateRegistry } from '#kernel/state.js'
import type { Trace } from '#kernel/trace.js'

/**
 * What every domain area receives from the kernel: the one clock, the pending-work queue, seeded
 * randomness, ids and the trace. Domain code reads time only through `clock.now`.
 */
export interface Kernel {
  readonly clock: Clock
  readonly scheduler: Scheduler
  readonly rng: Rng
  readonly ids: Ids
  readonly trace: Trace
  /** Where each module registers the state a snapshot carries (docs/snapshot.md). */
  readonly state: StateRegistry
  /** Header prefix (`Service` by default); also decides default payload keys like `service_customer_id`. */
  readonly prefix: string
}
