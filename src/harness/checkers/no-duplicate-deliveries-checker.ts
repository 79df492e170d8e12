import type { DeliveryRecord } from '../scenario/run-result.js'
import { type Checker, guardedChecker } from './checker.js'
import { recordViolation } from './violation.js'

/**
 * `no-duplicate-deliveries`: no receiver saw an event id again after acknowledging it.
 *
 * @example
 * expectations: { checkers: ['no-duplicate-deliveries'] }
 */
export const noDuplicateDeliveriesChecker: Checker = guardedChecker({
  name: 'no-duplicate-deliveries',
  check: ({ deliveries }) => {
    const acked = new Set<string>()
    const dups: DeliveryRecord[] = []
    for (const d of deliveries) {
      if (d.replay === true) continue
      const key = `${d.receiver} ${d.eventId}`
      if (acked.has(key)) dups.push(d)
      if (d.status >= 200 && d.status < 300) acked.add(key)
    }
    return dups.length === 0
      ? []
      : [recordViolation('no-duplicate-deliveries', `${dups.length} delivery(ies) of already acknowledged events`, dups)]
  },
  holds: () => 'no event delivered again after it was acknowledged',
})
