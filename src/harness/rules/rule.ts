import type { TraceEntry } from '#kernel/index.js'
import type { Violation } from '../checkers/violation.js'
import type { FlowRun } from '../flows/flow-run.js'
import type { RuleHistory } from './rule-history.js'

/** What a rule's probe is given at each checkpoint: the app under test and the run. */
export interface ProbeContext<App> {
  readonly app: App
  readonly run: FlowRun
  /** Appends a trace entry of this rule (`harness.rule.state`), for its `check` to read. */
  note(data: Readonly<Record<string, unknown>>): TraceEntry
}

/**
 * One rule over what an app does: a name (the checker name its violations carry), an optional
 * probe that records what it needs after every step and at the end (the app's observable state,
 * say), and a check over the run's history naming every violation.
 *
 * @example
 * const noRefunds: Rule = {
 *   name: 'refund.never',
 *   check: (h) => h.effects('refund').map((f) => violation('refund.never', `${f.key} refunded`, [f.entry])),
 * }
 */
export interface Rule<App = unknown> {
  readonly name: string
  /** What the rule promises, for a report line and the docs. */
  readonly description?: string
  /** May answer a promise (the app's state read from its database); the checkpoint waits for it. */
  probe?(context: ProbeContext<App>, final: boolean): void | Promise<void>
  check(history: RuleHistory): readonly Violation[]
}
