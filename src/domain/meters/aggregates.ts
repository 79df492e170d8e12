import { MINUTE } from '#kernel/time.js'
import type { MeterFormula } from './meter.js'

/** One minute of one customer's processed usage on one meter. */
export interface MinuteBucket {
  sum: number
  count: number
  /** Timestamp and processing order of the event `last` reports. */
  lastAt: number
  lastSeq: number
  lastValue: number
}

/** The three folds of a window; `value` is the one the meter's formula picks. */
export interface AggregateValue {
  readonly sum: number
  readonly count: number
  /** Value of the latest event by timestamp (ties: the one processed last); null when no events. */
  readonly last: number | null
}

/**
 * The minute buckets of one meter and customer, naming whose they are: a snapshot saves an
 * identifier's buckets by their owner. The names are members rather than entries of a side table,
 * as a new customer (a workload may bring one per event) then costs one object.
 *
 * @example
 * const buckets = new CustomerBuckets('mtr_1', 'cus_1')
 * buckets.meter // 'mtr_1'
 */
class CustomerBuckets extends Map<number, MinuteBucket> {
  readonly meter: string
  readonly customer: string
  constructor(meter: string, customer: string) {
    super()
    this.meter = meter
    this.customer = customer
  }
}

/**
 * Processed usage per meter, customer and minute. Event summaries ask for minute-aligned windows,
 * so minute buckets answer any window exactly while memory grows with distinct minutes, not with
 * events. Only processed events are added, so summaries never show pending usage.
 *
 * @example
 * aggregates.add('mtr_1', 'cus_1', Date.UTC(2026, 0, 1), 5)
 * aggregates.window('mtr_1', 'cus_1', Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 2)) // { sum: 5, count: 1, last: 5 }
 */
export class Aggregates {
  private readonly meters = new Map<string, Map<string, CustomerBuckets>>()
  private seq = 0

  /** The meter and customer a bucket map belongs to. */
  owner(buckets: Map<number, MinuteBucket>): { meter: string; customer: string } | undefined {
    return buckets instanceof CustomerBuckets ? buckets : undefined
  }

  /**
   * Takes one processed event out (a cancellation). When it was its minute's `last`, the latest of
   * `remaining` (the events of this bucket map the service still remembers) in that minute takes
   * its place; with none remembered the minute has no `last`.
   */
  remove(
    buckets: Map<number, MinuteBucket>,
    at: number,
    value: number,
    remaining: Iterable<{ timestamp: number; value: number; order: number }>,
  ): void {
    const minute = Math.floor(at / MINUTE)
    const b = buckets.get(minute)
    if (b === undefined) return
    b.sum -= value
    b.count--
    if (b.count <= 0) {
      buckets.delete(minute)
      return
    }
    if (b.lastAt !== at || b.lastValue !== value) return
    b.lastAt = Number.NEGATIVE_INFINITY
    b.lastSeq = -1
    b.lastValue = 0
    let order = -1
    for (const e of remaining) {
      if (Math.floor(e.timestamp / MINUTE) !== minute) continue
      if (e.timestamp > b.lastAt || (e.timestamp === b.lastAt && e.order > order)) {
        b.lastAt = e.timestamp
        b.lastValue = e.value
        order = e.order
        b.lastSeq = e.order
      }
    }
  }

  /** Every bucket as plain data, for a snapshot. */
  save(): { seq: number; meters: [string, [string, [number, MinuteBucket][]][]][] } {
    return {
      seq: this.seq,
      meters: [...this.meters].map(([m, byCustomer]) => [
        m,
        [...byCustomer].map(([c, buckets]) => [
          c,
          [...buckets].map(([minute, b]) => [minute, { ...b }] as [number, MinuteBucket]),
        ]),
      ]),
    }
  }

  load(saved: ReturnType<Aggregates['save']>): void {
    this.seq = saved.seq
    this.meters.clear()
    for (const [m, byCustomer] of saved.meters) {
      const map = new Map<string, CustomerBuckets>()
      for (const [c, buckets] of byCustomer) {
        const restored = new CustomerBuckets(m, c)
        for (const [minute, b] of buckets) restored.set(minute, { ...b })
        map.set(c, restored)
      }
      this.meters.set(m, map)
    }
  }

  /** The bucket map of one meter and customer, for callers that add many events to it. */
  customer(meter: string, customer: string): Map<number, MinuteBucket> {
    let byCustomer = this.meters.get(meter)
    if (byCustomer === undefined) {
      byCustomer = new Map()
      this.meters.set(meter, byCustomer)
    }
    let buckets = byCustomer.get(customer)
    if (buckets === undefined) {
      buckets = new CustomerBuckets(meter, customer)
      byCustomer.set(customer, buckets)
    }
    return buckets
  }

  add(meter: string, customer: string, at: number, value: number): void {
    this.addTo(this.customer(meter, customer), at, value)
  }

  addTo(buckets: Map<number, MinuteBucket>, at: number, value: number): void {
    const minute = Math.floor(at / MINUTE)
    const seq = this.seq++
    const b = buckets.get(minute)
    if (b === undefined) {
      buckets.set(minute, { sum: value, count: 1, lastAt: at, lastSeq: seq, lastValue: value })
      return
    }
    b.sum += value
    b.count++
    if (at >= b.lastAt) {
      b.lastAt = at
      b.lastSeq = seq
      b.lastValue = value
    }
  }

  /** Folds the events with timestamp in [start, end) (epoch ms, minute-aligned). */
  window(meter: string, customer: string, start: number, end: number): AggregateValue {
    const buckets = this.meters.get(meter)?.get(customer)
    let sum = 0
    let count = 0
    let lastAt = Number.NEGATIVE_INFINITY
    let lastSeq = -1
    let last: number | null = null
    if (buckets === undefined) return { sum, count, last }
    const from = Math.floor(start / MINUTE)
    const to = Math.ceil(end / MINUTE)
    for (const [minute, b] of buckets) {
      if (minute < from || minute >= to) continue
      sum += b.sum
      count += b.count
      if (b.lastSeq >= 0 && (b.lastAt > lastAt || (b.lastAt === lastAt && b.lastSeq > lastSeq))) {
        lastAt = b.lastAt
        lastSeq = b.lastSeq
        last = b.lastValue
      }
    }
    return { sum, count, last }
  }

  /** Earliest minute (epoch ms) with processed usage of a meter and customer, if any. */
  firstMinute(meter: string, customer: string): number | undefined {
    const buckets = this.meters.get(meter)?.get(customer)
    if (buckets === undefined) return undefined
    let first = Number.POSITIVE_INFINITY
    for (const [minute, b] of buckets) if (b.count > 0 && minute < first) first = minute
    return first === Number.POSITIVE_INFINITY ? undefined : first * MINUTE
  }

  /** Customers with processed usage on a meter. */
  customers(meter: string): string[] {
    return [...(this.meters.get(meter)?.keys() ?? [])]
  }
}

/**
 * The number a formula reports for a window.
 *
 * @example
 * formulaValue('count', { sum: 12, count: 3, last: 2 }) // 3
 */
export function formulaValue(formula: MeterFormula, value: AggregateValue): number {
  if (formula === 'count') return value.count
  if (formula === 'last') return value.last ?? 0
  return value.sum
}
