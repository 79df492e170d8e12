import { violation } from '../checkers/violation.js'
import type { Rule } from './rule.js'

/** Checker name of a genuine delivery refused. */
export const ACK_GENUINE_REFUSED = 'ack.genuine_refused'

/**
 * The acknowledgement rule: a genuine delivery (signed by the provider with a secret of the
 * destination, within the tolerance) answered with anything but a 2xx while the app was up is a
 * violation (named once per event type), unless one of the app's own API reads failed while it handled it (then a retry is
 * what it needs). An app that answers 500 to `checkout.session.expired` or to a type it does not
 * handle makes the provider retry for days and finally disable the endpoint.
 *
 * @example
 * const rules = [acknowledgesGenuine(), atMostOnce('email.welcome')]
 */
export function acknowledgesGenuine(): Rule {
  return {
    name: ACK_GENUINE_REFUSED,
    description: 'no genuine delivery answered 5xx (unless an API read failed meanwhile)',
    check(history) {
      const refused = history.entries.filter(
        // A 4xx to a genuine delivery is `flow.genuine_refused`'s (every flow run judges it): one verdict per mistake.
        (e) => e.kind === 'harness.rule.refused' && e.data.failedReads === 0 && !(e.data.status >= 400 && e.data.status < 500),
      )
      const first = refused[0]
      if (first === undefined) return []
      const types = [...new Set(refused.map((e) => String(e.data.type)))]
      return [
        violation(
          ACK_GENUINE_REFUSED,
          `${String(first.data.event)} (${String(first.data.type)}): a genuine delivery answered ${String(first.data.status)} while the app was up and none of its API reads failed; ${refused.length} such answer(s) to ${types.join(', ')} (the provider retries them for days, then disables the endpoint)`,
          refused.slice(0, 5),
        ),
      ]
    },
  }
}
