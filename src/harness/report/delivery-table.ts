import type { Report } from './report.js'

/** Delivery attempts of one receiver (or destination), by kind. */
export interface DeliveryRow {
  readonly receiver: string
  readonly attempts: number
  readonly first: number
  readonly retries: number
  readonly acknowledged: number
  readonly refused: number
  readonly unreachable: number
}

/**
 * Counts of a report's delivery attempts per receiver: first tries, retries, acknowledged (2xx),
 * refused (another status) and unreachable (no connection).
 *
 * @example
 * deliveryRows(report) // [{ receiver: 'hooks', attempts: 33, retries: 30, ... }]
 */
export function deliveryRows(report: Report): DeliveryRow[] {
  const rows = new Map<string, { -readonly [K in keyof DeliveryRow]: DeliveryRow[K] }>()
  for (const d of report.deliveries) {
    const r = rows.get(d.receiver) ?? {
      receiver: d.receiver,
      attempts: 0,
      first: 0,
      retries: 0,
      acknowledged: 0,
      refused: 0,
      unreachable: 0,
    }
    r.attempts++
    if (d.attempt > 1) r.retries++
    else r.first++
    if (d.status >= 200 && d.status < 300) r.acknowledged++
    else if (d.status === 0) r.unreachable++
    else r.refused++
    rows.set(d.receiver, r)
  }
  return [...rows.values()].sort((a, b) => a.receiver.localeCompare(b.receiver))
}
