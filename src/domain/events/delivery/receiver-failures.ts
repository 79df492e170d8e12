/**
 * Delivery fault knobs, all off by default. They draw from the `delivery-faults` random stream
 * only when switched on, so a run without faults draws nothing and keeps its trace. The harness
 * sets them; every decision they cause is written to the trace as `delivery.fault`.
 *
 * @example
 * sim.service.delivery.faults.duplicateRate = 0.2   // 20% of deliveries are sent twice
 * sim.service.delivery.faults.reorderWindowMs = 5000 // first attempts spread over 5 s: order changes
 */
export interface DeliveryFaults {
  /** Probability that a delivery is also sent a second time (same event id). */
  duplicateRate: number
  /** First attempts are delayed by a seeded amount in [0, window): deliveries arrive out of order. */
  reorderWindowMs: number
  /** Probability that a second, distinct event (new id) is emitted for the same change. */
  redundantEventRate: number
}

/** A fresh set of knobs, all off. */
export function noFaults(): DeliveryFaults {
  return { duplicateRate: 0, reorderWindowMs: 0, redundantEventRate: 0 }
}
