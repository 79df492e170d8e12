import type { TraceEntry } from '#kernel/index.js'
import type { Violation } from '../checkers/violation.js'
import { checkFlows, type FlowCheckOptions, type FlowCheckResult } from '../flows/flow-property.js'
import type { FlowClientEnv, FlowRun, FlowSubject } from '../flows/flow-run.js'
import { refuseArgument } from '../refuse-argument.js'
import { HarnessInputError, refuseNotEntries, shownValue } from '../validate-input.js'
import { objectState } from './object-state.js'
import type { Rule } from './rule.js'
import { ruleHistory } from './rule-history.js'
import type { RuleSet } from './rule-set.js'
import { providerView } from './state-matches.js'

/** What an app under a rule set is given: a billing client's env (with `store`, which outlives a redeploy, and `effects`). */
export type RuleEnv = FlowClientEnv

/** The least an app under a rule set is: a webhook handler (its other members are for its rules' probes). */
export interface RuleApp {
  handler(request: Request): Response | Promise<Response>
}

/**
 * Judges a run's trace by a list of rules.
 *
 * @example
 * checkRuleTrace(sim.trace.entries(), refunds.rules) // []
 */
export function checkRuleTrace(entries: readonly TraceEntry[], rules: readonly Rule<never>[]): Violation[] {
  refuseNotEntries('checkRuleTrace', entries)
  if (!Array.isArray(rules) || rules.some((r) => typeof (r as { check?: unknown } | null)?.check !== 'function'))
    throw new HarnessInputError(
      `checkRuleTrace: expected an array of rules (atMostOnce, exactlyOnce, ... or a rule set's rules), got ${shownValue(rules)}`,
    )
  const history = ruleHistory(entries)
  return rules.flatMap((r) => [...r.check(history)])
}

/**
 * Runs every rule's probe at a checkpoint, in order; a probe that answers a promise (the app's
 * state read from its database) is awaited before the next, so the trace keeps the rules' order.
 *
 * @example
 * await probeRules(refunds.rules, app, run, true)
 */
export function probeRules<App>(rules: readonly Rule<App>[], app: App, run: FlowRun, final: boolean): void | Promise<void> {
  refuseArgument('probeRules', 'rules', rules, 'array')
  refuseArgument('probeRules', 'run', run, 'object')
  const trace = run.sim.service.kernel.trace
  for (const [i, rule] of rules.entries()) {
    const probed = rule.probe?.(
      { app, run, note: (data) => trace.append('harness.rule.state', { ...data, rule: rule.name }) },
      final,
    )
    if (probed instanceof Promise) return probed.then(() => probeRules(rules.slice(i + 1), app, run, final))
  }
}

function traceFinals(run: FlowRun, resources: readonly string[]): void {
  const view = providerView(run)
  for (const resource of resources)
    for (const o of view.list(resource)) {
      const state = objectState(o)
      if (state !== undefined) run.sim.service.kernel.trace.append('harness.rule.final', { id: String(state.id), state })
    }
}

/**
 * A rule set as a billing flow subject: the app made from `factory` (again on each redeploy), its rules'
 * probes after every step and at the end, the end state of the rule set's `objects`, and the rules
 * judging the trace.
 *
 * @example
 * const report = await runFlow(program, ruleSetSubject(myApp, refunds, 'test'))
 */
export function ruleSetSubject<App extends RuleApp>(
  factory: (env: RuleEnv) => App,
  ruleSet: RuleSet<App>,
  api: string,
): FlowSubject {
  refuseArgument('ruleSetSubject', 'factory', factory, 'function')
  refuseArgument('ruleSetSubject', 'ruleSet', ruleSet, 'object')
  refuseArgument('ruleSetSubject', 'api', api, 'string')
  let app: App | undefined
  return {
    ...(ruleSet.eventTypes === undefined ? {} : { eventTypes: ruleSet.eventTypes }),
    ...(ruleSet.actions === undefined ? {} : { actions: ruleSet.actions }),
    ...(ruleSet.connect === true ? { connect: true } : {}),
    start(run) {
      const made = factory(run.env) as Partial<App> | undefined
      if (typeof made?.handler !== 'function') throw new HarnessInputError(`${api}: the app factory must return { handler }`)
      app = made as App
      return app
    },
    checkpoint(run, final) {
      if (app === undefined) return
      const probed = probeRules(ruleSet.rules, app, run, final)
      if (!final) return probed
      if (probed instanceof Promise) return probed.then(() => traceFinals(run, ruleSet.objects))
      traceFinals(run, ruleSet.objects)
    },
    check: (entries) => checkRuleTrace(entries, ruleSet.rules as readonly Rule<never>[]),
  }
}

/**
 * Checks an app against a rule set over generated flows under every fault kind, shrinking a
 * failure to a 1-minimal program: the ready-made properties are rule sets run this way.
 *
 * @example
 * const result = await checkRules(myRefundsApp, refunds, { numRuns: 100, headerPrefix: 'Stripe' })
 * expect(result.violations ?? []).toEqual([])
 */
export async function checkRules<App extends RuleApp>(
  factory: (env: RuleEnv) => App,
  ruleSet: RuleSet<App>,
  options: FlowCheckOptions = {},
): Promise<FlowCheckResult> {
  if (typeof factory !== 'function') throw new HarnessInputError('checkRules: expected an app factory (env) => { handler }')
  if (!Array.isArray(ruleSet?.rules)) throw new HarnessInputError('checkRules: expected a rule set made by defineRuleSet')
  const api = `checkRules(${ruleSet.name})`
  return checkFlows(api, () => ruleSetSubject(factory, ruleSet, api), {
    ...options,
    ...(ruleSet.actions === undefined && options.actions === undefined
      ? {}
      : { actions: { ...ruleSet.actions, ...options.actions } }),
    ...(ruleSet.workload === undefined && options.workload === undefined
      ? {}
      : { workload: { ...ruleSet.workload, ...options.workload } }),
  })
}
