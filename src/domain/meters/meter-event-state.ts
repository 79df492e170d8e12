import { fromPlain, toPlain } from '#kernel/plain.js'
import type { Kernel } from '../kernel-parts.js'
import { type Scope, scopeKey } from '../mode.js'
import { Aggregates } from './aggregates.js'
import { IdentifierIndex, type SavedIdentifierIndex } from './identifier-index.js'
import type { CancelledEvent, MeterLocks, ProcessedListener, StreamEvent } from './meter-event-types.js'

/** Slot of a stream event with no identifier (nothing to hold). */
export const NO_IDENTIFIER = -2
/** Slot of a stream event whose identifier was held by an earlier submission. */
export const DUPLICATE = -1

/**
 * An accepted stream request waiting for processing (plain data: it is the task's argument, so a
 * snapshot carries it). `slots[i]` is where event i's identifier sits in the index, taken on
 * submission, or {@link DUPLICATE} / {@link NO_IDENTIFIER}.
 */
export interface PendingBatch {
  readonly scope: Scope
  readonly key: string
  readonly events: readonly StreamEvent[]
  readonly timestamps: readonly number[] | undefined
  readonly slots: readonly number[]
  readonly receivedAt: number
  readonly id: number
}

/** An accepted synchronous event waiting for processing; `slot` is where its identifier sits. */
export interface PendingSync {
  readonly key: string
  readonly meter: string
  readonly customer: string
  readonly identifier: string
  readonly slot: number
  readonly timestamp: number
  readonly value: number
}

/** The pipeline's counters (saved with the snapshot). */
export interface MeterEventCounts {
  pendingEvents: number
  processedEvents: number
  invalidEvents: number
  duplicateEvents: number
  cancelledEvents: number
  batches: number
  sweepArmed: boolean
}

/**
 * Everything the meter event modules share: counters, the aggregates, the identifier index per
 * account and mode, work accepted and not processed, and cancellations.
 *
 * @example
 * const state = createMeterEventState(kernel)
 * state.index(scope).take('e1', kernel.clock.now)
 */
export interface MeterEventState {
  readonly counts: MeterEventCounts
  readonly aggregates: Aggregates
  readonly indexes: Map<string, IdentifierIndex>
  /** Identifiers an adjustment cancelled before their event was processed, per account and mode. */
  readonly pendingCancels: Map<string, Set<string>>
  readonly cancelledList: Map<string, CancelledEvent[]>
  readonly pendingBatches: Set<PendingBatch>
  readonly pendingSync: Set<PendingSync>
  locks: MeterLocks | undefined
  /** Told after each processing task (billing alerts). */
  processed: ProcessedListener | undefined
  index(scope: Scope): IdentifierIndex
  indexByKey(key: string): IdentifierIndex
  /** Appends to the inspection list of cancelled events of a scope. */
  noteCancelled(key: string, event: CancelledEvent): void
}

interface Saved {
  counts: MeterEventCounts
  aggregates: ReturnType<Aggregates['save']>
  indexes: [string, SavedIdentifierIndex][]
  pendingCancels: [string, string[]][]
  cancelledList: [string, CancelledEvent[]][]
}

export function createMeterEventState(kernel: Kernel): MeterEventState {
  const state: MeterEventState = {
    counts: {
      pendingEvents: 0,
      processedEvents: 0,
      invalidEvents: 0,
      duplicateEvents: 0,
      cancelledEvents: 0,
      batches: 0,
      sweepArmed: false,
    },
    aggregates: new Aggregates(),
    indexes: new Map(),
    pendingCancels: new Map(),
    cancelledList: new Map(),
    pendingBatches: new Set(),
    pendingSync: new Set(),
    locks: undefined,
    processed: undefined,
    index: (scope) => state.indexByKey(scopeKey(scope)),
    indexByKey(key) {
      let i = state.indexes.get(key)
      if (i === undefined) {
        i = new IdentifierIndex()
        state.indexes.set(key, i)
      }
      return i
    },
    noteCancelled(key, event) {
      const list = state.cancelledList.get(key)
      if (list === undefined) state.cancelledList.set(key, [event])
      else list.push(event)
    },
  }
  kernel.state.register('meter_events', {
    save: () => toPlain(save(state)),
    load: (data) => load(state, fromPlain<Saved>(data)),
  })
  return state
}

function save(state: MeterEventState): Saved {
  const { aggregates } = state
  return {
    counts: { ...state.counts },
    aggregates: aggregates.save(),
    // Bucket references are saved as meter and customer, re-linked to the loaded aggregates.
    indexes: [...state.indexes].map(([k, i]) => [k, i.save((b) => aggregates.owner(b))]),
    pendingCancels: [...state.pendingCancels].map(([k, ids]) => [k, [...ids]]),
    cancelledList: [...state.cancelledList],
  }
}

function load(state: MeterEventState, saved: Saved): void {
  Object.assign(state.counts, saved.counts)
  state.aggregates.load(saved.aggregates)
  state.indexes.clear()
  for (const [k, i] of saved.indexes) {
    state.indexes.set(
      k,
      IdentifierIndex.load(i, (m, c) => state.aggregates.customer(m, c)),
    )
  }
  state.pendingCancels.clear()
  for (const [k, ids] of saved.pendingCancels) state.pendingCancels.set(k, new Set(ids))
  state.cancelledList.clear()
  for (const [k, list] of saved.cancelledList) state.cancelledList.set(k, list)
  // Pending work comes back with its tasks (`restored`), after this part.
  state.pendingSync.clear()
  state.pendingBatches.clear()
}
