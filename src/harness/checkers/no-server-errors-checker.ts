import { type Checker, guardedChecker } from './checker.js'
import { recordViolation } from './violation.js'

/**
 * `no-server-errors`: no request was answered 5xx.
 *
 * @example
 * expectations: { checkers: ['no-server-errors'] }
 */
export const noServerErrorsChecker: Checker = guardedChecker({
  name: 'no-server-errors',
  check: ({ requests }) => {
    const bad = requests.filter((r) => r.status >= 500)
    return bad.length === 0 ? [] : [recordViolation('no-server-errors', `${bad.length} request(s) answered 5xx`, bad)]
  },
  holds: ({ requests }) => `${requests.length} requests, none 5xx`,
})
