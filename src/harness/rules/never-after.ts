import { type Violation, violation } from '../checkers/violation.js'
import { refuseArgument } from '../refuse-argument.js'
import type { Rule } from './rule.js'
import { describeEffect } from './rule-history.js'
import { ruleInput } from './rule-input.js'

/** Settings of {@link neverAfter}. */
export interface NeverAfterOptions {
  /** Checker name of its violations (default `<kind>.never_after`). */
  readonly name?: string
}

/**
 * "Never after event Y": once the app accepted an event of one of `types` about an object, it
 * never does `kind` to that object's key again (a failure notice after the invoice was paid, a
 * shipment after the refund). Judged on what the app accepted, so a stale event it handles later
 * does not excuse it: it knew.
 *
 * @example
 * neverAfter('dunning.notice', ['invoice.paid'], { name: 'dunning.notice_once' })
 */
export function neverAfter(kind: string, types: readonly string[], options: NeverAfterOptions = {}): Rule {
  refuseArgument('neverAfter', 'options', options, 'options')
  ruleInput('neverAfter', { kind, types }, options)
  const name = options.name ?? `${kind}.never_after`
  const wanted = new Set(types)
  return {
    name,
    description: `${kind} never after the app accepted ${types.join(' or ')}`,
    check(history) {
      const first = new Map<string, ReturnType<typeof history.accepted>[number]>()
      for (const a of history.accepted())
        if (wanted.has(a.type) && a.object !== null && !first.has(a.object)) first.set(a.object, a)
      const out: Violation[] = []
      const reported = new Set<string>()
      for (const f of history.effects(kind)) {
        const after = first.get(f.key)
        if (after === undefined || f.entry.seq < after.entry.seq || reported.has(f.key)) continue
        reported.add(f.key)
        out.push(
          violation(name, `${f.key}: ${kind} after the app accepted ${after.event} (${after.type}), ${describeEffect(f)}`, [
            after.entry,
            f.entry,
          ]),
        )
      }
      return out
    },
  }
}
