import type { LayeredMap } from '#kernel/layered-map.js'
import { LayeredMap as Index } from '#kernel/layered-map.js'
import { fromPlain, toPlain } from '#kernel/plain.js'
import type { StoredEvent } from '../event.js'
import type { AttemptSchedule } from './attempt-schedule.js'
import type { DeliveryContext } from './delivery-context.js'
import type { DeliveryRecord } from './delivery-record.js'
import type { DeliveryFaults } from './receiver-failures.js'
import { type SavedCapture, saveCapture } from './replay.js'

interface Saved {
  records: DeliveryRecord[]
  captured: SavedCapture | null
  faults: DeliveryFaults
}

/**
 * Registers delivery's snapshot part: the records, the captured request and the fault knobs. A
 * fork takes the event index as it is instead of rebuilding it; a load starts with an empty index,
 * built from the event store (loaded first) on the first lookup.
 *
 * @example
 * registerDeliveryState(ctx, schedule)
 */
export function registerDeliveryState(ctx: DeliveryContext, schedule: AttemptSchedule): void {
  const save = () =>
    toPlain({
      records: ctx.book.all(),
      captured: ctx.captured === undefined ? null : saveCapture(ctx.captured),
      faults: { ...ctx.faults },
    })

  function load(data: unknown, index: LayeredMap<string, StoredEvent>, complete: boolean): void {
    const saved = fromPlain<Saved>(data)
    ctx.book.reset(saved.records)
    schedule.clear()
    ctx.index.reset(index, complete)
    const c = saved.captured
    ctx.captured =
      c === null
        ? undefined
        : { r: ctx.book.get(c.event, c.destination) as DeliveryRecord, url: c.url, body: c.body, headers: c.headers, at: c.at }
    Object.assign(ctx.faults, saved.faults)
  }

  ctx.kernel.state.register('delivery', {
    save,
    copy() {
      const { byId, complete } = ctx.index.fork()
      return { saved: save(), eventsById: byId, indexesAll: complete }
    },
    // One copy may be loaded by many forks: each takes its own fork of the index.
    loadCopy(data) {
      const copied = data as { saved: unknown; eventsById: LayeredMap<string, StoredEvent>; indexesAll: boolean }
      load(copied.saved, copied.eventsById.fork(), copied.indexesAll)
    },
    load(data) {
      return load(data, new Index(), false)
    },
  })
}
