import { type Violation, violation } from '../checkers/violation.js'
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
      const out: Violation[] = []
      const types = new Set<string>()
      for (const e of history.entries) {
        // One verdict per event type: the same refusal repeats on every retry and every event of the type.
        if (e.kind !== 'harness.rule.refused' || e.data.failedReads > 0 || types.has(e.data.type)) continue
        // A 4xx to a genuine delivery is `flow.genuine_refused`'s (every flow run judges it): one verdict per mistake.
        if (e.data.status >= 400 && e.data.status < 500) continue
        types.add(e.data.type)
        out.push(
          violation(
            ACK_GENUINE_REFUSED,
            `${e.data.event} (${e.data.type}): a genuine delivery answered ${e.data.status} while the app was up and none of its API reads failed (the provider retries it for days, then disables the endpoint)`,
            [e],
          ),
        )
      }
      return out
    },
  }
}
