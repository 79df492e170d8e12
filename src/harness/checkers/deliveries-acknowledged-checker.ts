import type { DeliveryRecord } from '../scenario/run-result.js'
import { type Checker, guardedChecker } from './checker.js'
import { recordViolation } from './violation.js'

/** The first delivery of each receiver and event, and which of them were ever answered 2xx. */
function tally(deliveries: readonly DeliveryRecord[]): { seen: Map<string, DeliveryRecord>; acked: Set<string> } {
  const acked = new Set<string>()
  const seen = new Map<string, DeliveryRecord>()
  for (const d of deliveries) {
    if (d.replay === true) continue
    const key = `${d.receiver} ${d.eventId}`
    if (d.status >= 200 && d.status < 300) acked.add(key)
    if (!seen.has(key)) seen.set(key, d)
  }
  return { seen, acked }
}

/**
 * `deliveries-acknowledged`: every event a receiver saw was in the end answered 2xx.
 *
 * @example
 * expectations: { checkers: ['deliveries-acknowledged'] }
 */
export const deliveriesAcknowledgedChecker: Checker = guardedChecker({
  name: 'deliveries-acknowledged',
  check: ({ deliveries }) => {
    const { seen, acked } = tally(deliveries)
    const missing = [...seen.entries()].filter(([k]) => !acked.has(k)).map(([, d]) => d)
    return missing.length === 0
      ? []
      : [recordViolation('deliveries-acknowledged', `${missing.length} event(s) never acknowledged by their receiver`, missing)]
  },
  holds: ({ deliveries }) => `${tally(deliveries).seen.size} event(s) delivered, all acknowledged`,
})
