import { type Checker, guardedChecker } from './checker.js'
import { recordViolation } from './violation.js'

/**
 * `signatures-valid`: every delivery a receiver saw carried a valid signature for a known secret
 * (an attacker's replay is not a delivery of the service).
 *
 * @example
 * expectations: { checkers: ['signatures-valid'] }
 */
export const signaturesValidChecker: Checker = guardedChecker({
  name: 'signatures-valid',
  check: ({ deliveries }) => {
    const bad = deliveries.filter((d) => d.signature === 'invalid' && d.replay !== true)
    return bad.length === 0
      ? []
      : [recordViolation('signatures-valid', `${bad.length} deliveries failed signature verification`, bad)]
  },
  holds: ({ deliveries }) => `${deliveries.length} deliveries, every signature valid`,
})
