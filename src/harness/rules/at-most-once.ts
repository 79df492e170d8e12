import { type Violation, violation } from '../checkers/violation.js'
import { refuseArgument } from '../refuse-argument.js'
import { refusalHint } from './refusal-hint.js'
import type { Rule } from './rule.js'
import { describeEffect } from './rule-history.js'
import { ruleInput } from './rule-input.js'
import { twinHint } from './twin-hint.js'

/** Settings of {@link atMostOnce}. */
export interface AtMostOnceOptions {
  /** Checker name of its violations (default `<kind>.at_most_once`). */
  readonly name?: string
  /** An effect kind that takes one back (a refund of a charge): a reversed effect may happen again. */
  readonly reversal?: string
}

/**
 * "At most once per key": the app never does `kind` to the same key twice (duplicates, retries, a
 * redeploy losing memory, the page racing the webhook), less what it took back with `reversal`.
 *
 * @example
 * atMostOnce('email.welcome', { name: 'mirror.welcome_once' })
 */
export function atMostOnce(kind: string, options: AtMostOnceOptions = {}): Rule {
  refuseArgument('atMostOnce', 'options', options, 'options')
  ruleInput('atMostOnce', { kind }, options)
  const name = options.name ?? `${kind}.at_most_once`
  return {
    name,
    description: `${kind} at most once per key`,
    check(history) {
      const out: Violation[] = []
      const net = new Map<string, number>()
      const seen = new Map<string, ReturnType<typeof history.effects>[number][]>()
      const all = options.reversal === undefined ? history.effects(kind) : history.effects()
      for (const f of all) {
        if (f.kind !== kind && f.kind !== options.reversal) continue
        const n = (net.get(f.key) ?? 0) + (f.kind === kind ? 1 : -1)
        net.set(f.key, n)
        const list = seen.get(f.key) ?? []
        list.push(f)
        seen.set(f.key, list)
        if (n === 2 && f.kind === kind) {
          const first = list.find((g) => g.kind === kind) ?? f
          const why = twinHint(history.entries, [first, f]) || refusalHint(history.entries, [first, f])
          out.push(
            violation(name, `${f.key}: ${kind} a second time, ${describeEffect(f)} (the first ${describeEffect(first)})${why}`, [
              ...list.map((g) => g.entry),
            ]),
          )
        }
      }
      return out
    },
  }
}
