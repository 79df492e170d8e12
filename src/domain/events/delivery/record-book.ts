import type { DeliveryRecord } from './delivery-record.js'

/**
 * Which deliveries `records()` returns; every given field must match.
 *
 * @example
 * book.filter({ event: 'evt_1', status: 'Failed' })
 */
export interface DeliveryFilter {
  event?: string
  destination?: string
  status?: DeliveryRecord['status']
}

/**
 * Every delivery record (one per event and destination), by key and in creation order.
 *
 * @example
 * const book = createRecordBook()
 * book.add(record)
 * book.get('evt_1', 'ed_1') // record
 */
export interface RecordBook {
  get(eventId: string, destinationId: string): DeliveryRecord | undefined
  add(r: DeliveryRecord): void
  /** Records in creation order, filtered. */
  filter(filter: DeliveryFilter): DeliveryRecord[]
  /** Every record in creation order (what a snapshot saves). */
  all(): readonly DeliveryRecord[]
  /** Replaces every record (a load). */
  reset(records: readonly DeliveryRecord[]): void
}

const key = (eventId: string, destinationId: string) => `${eventId}|${destinationId}`

/**
 * An empty record book.
 *
 * @example
 * const book = createRecordBook()
 */
export function createRecordBook(): RecordBook {
  const byKey = new Map<string, DeliveryRecord>()
  const ordered: DeliveryRecord[] = []
  const add = (r: DeliveryRecord): void => {
    byKey.set(key(r.eventId, r.destinationId), r)
    ordered.push(r)
  }
  return {
    get(eventId, destinationId) {
      return byKey.get(key(eventId, destinationId))
    },
    add,
    filter(f) {
      return ordered.filter(
        (r) =>
          (f.event === undefined || r.eventId === f.event) &&
          (f.destination === undefined || r.destinationId === f.destination) &&
          (f.status === undefined || r.status === f.status),
      )
    },
    all() {
      return ordered
    },
    reset(records) {
      byKey.clear()
      ordered.length = 0
      for (const r of records) add(r)
    },
  }
}
