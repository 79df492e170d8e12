import { type Violation, violation } from '../checkers/violation.js'
import { refuseArgument } from '../refuse-argument.js'
import { absentFieldsHint, type ObjectState } from './object-state.js'
import type { Rule } from './rule.js'
import { describeEffect } from './rule-history.js'
import { ruleInput } from './rule-input.js'

/** Settings of {@link onlyWhile}. */
export interface OnlyWhileOptions {
  /** Checker name of its violations (default `<kind>.only_while`). */
  readonly name?: string
  /** The state in words, for verdicts (default `allowed`). */
  readonly what?: string
}

/**
 * "Only while the provider's object is in state S": when the app does `kind` to a key, the
 * provider's object of that id is in a state `holds` accepts, and so is what the app could know of
 * it then (its own API read in that context, else the event it was handling when that event is
 * about the object). Which of its handlers ran concurrently never matters: an app that acts on a
 * read showing the object paid passes while a stale event is handled elsewhere; one that acts on a
 * stale event showing it unpaid fails even if the object has meanwhile been paid.
 *
 * @example
 * onlyWhile('order.fulfil', (s) => s.status === 'complete' && s.payment_status === 'paid', { what: 'paid' })
 */
export function onlyWhile(kind: string, holds: (state: ObjectState) => boolean, options: OnlyWhileOptions = {}): Rule {
  refuseArgument('onlyWhile', 'options', options, 'options')
  ruleInput('onlyWhile', { kind, fns: { holds } }, options)
  const name = options.name ?? `${kind}.only_while`
  const what = options.what ?? 'allowed'
  return {
    name,
    description: `${kind} only while its object is ${what}`,
    check(history) {
      const out: Violation[] = []
      const reported = new Set<string>()
      for (const f of history.effects(kind)) {
        if (reported.has(f.key)) continue
        const truth = f.provider !== null && !holds(f.provider)
        const belief = f.basis !== null && !holds(f.basis)
        if (!truth && !belief) continue
        reported.add(f.key)
        const why = truth
          ? `the provider's object was not ${what}`
          : `what it acted on showed it not ${what} (${f.read === null ? 'the event it handled, never read' : 'its own API read'})`
        const judged = (truth ? f.provider : f.basis) as ObjectState
        out.push(
          violation(name, `${f.key}: ${kind} though ${why}, ${describeEffect(f)}${absentFieldsHint(holds, judged)}`, [f.entry]),
        )
      }
      return out
    },
  }
}
