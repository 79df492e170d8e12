import { violation } from '../checkers/violation.js'
import type { Rule } from './rule.js'
import { describeEffect } from './rule-history.js'

/** Checker name of an effect recorded after the app had acknowledged the delivery that caused it. */
export const ACK_BEFORE_DURABLE = 'ack.before_durable'

/**
 * The other half of acknowledgement: an app answers 2xx only once what the delivery causes is
 * done. An effect recorded in a delivery's context after the app had answered it 2xx (work left
 * running in the background, a queue that is not durable) is a violation: a crash or redeploy in
 * between loses it, and the provider, told the event was handled, never sends it again.
 *
 * @example
 * const rules = [acknowledgesGenuine(), acknowledgesDurably(), atMostOnce('email.welcome')]
 */
export function acknowledgesDurably(): Rule {
  return {
    name: ACK_BEFORE_DURABLE,
    description: 'no effect of a delivery recorded after the app answered it 2xx',
    check(history) {
      const late = history
        .effects()
        .filter((f) => f.answeredBefore !== undefined && f.answeredBefore >= 200 && f.answeredBefore < 300)
      const first = late[0]
      if (first === undefined) return []
      return [
        violation(
          ACK_BEFORE_DURABLE,
          `${first.key}: ${first.kind} recorded after the app had answered ${String(first.answeredBefore)} to the delivery that caused it (${describeEffect(first)}); a crash in between loses it and the provider never resends; ${late.length} such effect(s)`,
          late.slice(0, 5).map((f) => f.entry),
        ),
      ]
    },
  }
}
