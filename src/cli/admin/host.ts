import { createSimulator, type Simulator, type Snapshot } from '#simulator/index.js'
import type { ServeClock } from '../wall-driver.js'

/**
 * The reserved path prefix of the admin API in serve mode.
 *
 * @example
 * new URL(req.url).pathname.startsWith(ADMIN_PREFIX) // an admin call
 */
export const ADMIN_PREFIX = '/__sim/'

/**
 * Largest request body the admin API and the HTTP server read: 1 MiB.
 *
 * @example
 * await readLimited(req.body, MAX_BODY_BYTES)
 */
export const MAX_BODY_BYTES = 1024 * 1024

/**
 * Longest single clock advance: ten years (a larger jump is a mistake, and overflows dates).
 *
 * @example
 * z.number().max(MAX_ADVANCE_MS)
 */
export const MAX_ADVANCE_MS = 10 * 365 * 86_400_000

/**
 * What the admin API drives: the current simulator, how the clock moves and how to start over.
 * `withAdminApi(sim)` makes a manual one whose reset builds a simulator with the same seed and
 * header prefix.
 *
 * @example
 * const host: AdminHost = manualHost(createSimulator({ seed: 1 }))
 */
export interface AdminHost {
  /** The simulator now served (a reset replaces it). */
  readonly sim: Simulator
  readonly clock: ServeClock
  /** Moves virtual time ahead by `ms` and runs the work due on the way (with `--clock wall`, it stays ahead). */
  advance(ms: number): Promise<void>
  /** Replaces the simulator with a fresh one built from the same options (token, port and clock mode kept). */
  reset(): Promise<Simulator>
  /**
   * Takes a snapshot at rest (after settling the work due now) and, with `serve --state`, writes it
   * to the state file atomically; `file` is that path, or undefined.
   */
  snapshot(): Promise<{ snapshot: Snapshot; file: string | undefined }>
  /** What the host set up at start (e.g. `--forward-to` destinations), shown in `GET /state`. */
  readonly extras?: () => Record<string, unknown>
}

/**
 * A manual host around one simulator: the clock moves only when asked; a reset keeps the seed and
 * the header prefix.
 *
 * @example
 * const host = manualHost(createSimulator({ seed: 1 }))
 * await host.advance(60_000)
 */
export function manualHost(initial: Simulator): AdminHost {
  let sim = initial
  return {
    get sim() {
      return sim
    },
    clock: { mode: 'manual' },
    async advance(ms) {
      await sim.clock.tickAsync(ms)
      await sim.settle()
    },
    async reset() {
      sim = createSimulator({ seed: sim.seed, headerPrefix: sim.service.kernel.prefix })
      return sim
    },
    async snapshot() {
      await sim.settle()
      return { snapshot: sim.snapshot(), file: undefined }
    },
  }
}
