import type { ResolvedFaultPolicy } from '#faults/fault-policy.js'
import type { ReceiverHandler } from '#http/receivers.js'
import { type Plain, toPlain } from '#kernel/plain.js'
import type { RngState } from '#kernel/rng.js'
import type { SavedTask } from '#kernel/scheduler.js'
import type { TraceCopy, TraceState } from '#kernel/trace.js'
import type { SimulatorOptions } from './simulator-options.js'
import { type SnapshotV2, upgradeSnapshot } from './upgrade-snapshot.js'

export const SNAPSHOT_FORMAT = 'service-sim/snapshot'

/**
 * The whole state of a simulator as plain data (`sim.snapshot()`): JSON-safe, detached from the
 * simulator it came from. `createSimulator({ from: snapshot })` continues it exactly. The members
 * are documented in docs/snapshot.md; treat them as opaque.
 *
 * @example
 * writeFileSync('state.json', JSON.stringify(sim.snapshot()))
 * const again = createSimulator({ from: JSON.parse(readFileSync('state.json', 'utf8')) })
 */
export interface Snapshot {
  readonly format: typeof SNAPSHOT_FORMAT
  readonly version: 3
  /** The options the simulator was made with (seed, prefix, limits, faults, ...), as plain data. */
  readonly options: Plain
  /** The virtual time. */
  readonly now: number
  /** The position of every random stream drawn from. */
  readonly rng: RngState
  /** The trace: entries held, count, and the state of its digest chain. */
  readonly trace: TraceState
  /** Every module's state, by the name it registered (docs/snapshot.md). */
  readonly state: Readonly<Record<string, unknown>>
  /** Pending work, in insertion order. */
  readonly tasks: readonly SavedTask[]
  /** URLs of the in-process receivers mounted when the snapshot was taken (to mount again). */
  readonly receivers: readonly string[]
}

/** The options a snapshot carries: everything but `from` and the clock object. */
export type SnapshotOptions = Omit<SimulatorOptions, 'from' | 'clock'>

/** What a simulator is built from: a snapshot's content, or a fork's in-process copy. */
export interface Capture {
  readonly now: number
  readonly rng: RngState
  readonly trace: TraceState | TraceCopy
  readonly state: Readonly<Record<string, unknown>>
  /** `state` is a fork's copy (`kernel.state.copy()`), not saved plain data. */
  readonly copied?: boolean
  readonly tasks: readonly SavedTask[]
  /** A fork's receivers (functions); undefined for a snapshot. */
  readonly receivers: readonly (readonly [string, ReceiverHandler])[] | undefined
  /**
   * A fork's resolved fault policy (immutable data): the fork runs on it instead of resolving the
   * saved `faults` option again. Its options were validated when the original was built.
   */
  readonly policy?: ResolvedFaultPolicy
}

export function captureOptions(options: SimulatorOptions): Plain {
  const { from: _from, clock: _clock, start, ...rest } = options
  // The start is spent (the clock's time is saved); a Date is not plain data.
  void start
  return toPlain(rest, 'options')
}

/**
 * The snapshot `createSimulator({ from })` was given, checked and at the current version: a version
 * 2 snapshot is upgraded (`upgradeSnapshot`); version 1 and unknown versions are refused.
 *
 * @example
 * checkSnapshot(JSON.parse(readFileSync('state.json', 'utf8'))).version // 3
 */
export function checkSnapshot(value: unknown): Snapshot {
  const s = value as Partial<Snapshot> | null
  if (s === null || typeof s !== 'object' || s.format !== SNAPSHOT_FORMAT) {
    throw new TypeError(`createSimulator: 'from' is not a snapshot (expected format '${SNAPSHOT_FORMAT}', from sim.snapshot())`)
  }
  // A version 2 snapshot (a fixture saved by an earlier release) is upgraded, not read as version 3:
  // its balance transactions and meter event sessions would otherwise load as nothing.
  if ((s.version as number) === 2) return upgradeSnapshot(value as SnapshotV2)
  if (s.version !== 3)
    throw new TypeError(
      `createSimulator: snapshot version ${String(s.version)} is not supported (3 and 2 are; version 1 snapshots carried an older trace digest: take the snapshot again with this version)`,
    )
  return s as Snapshot
}
