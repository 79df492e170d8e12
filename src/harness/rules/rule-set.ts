import type { FlowAction } from '../flows/flow-actions.js'
import type { FlowWorkload } from '../flows/flow-program.js'
import { HarnessInputError, shownValue } from '../validate-input.js'
import { acknowledgesDurably } from './acknowledges-durably.js'
import { acknowledgesGenuine } from './acknowledges-genuine.js'
import type { Rule } from './rule.js'

/** What a rule set is made from. */
export interface RuleSetSpec<App> {
  /** Names the rule set in errors and reports (`refunds`). */
  readonly name: string
  /** The rules over what the app does and holds. */
  readonly rules: readonly Rule<App>[]
  /** The flows driven: the generated programs' shape (default the billing flows). */
  readonly workload?: FlowWorkload
  /** Actions of the workload's own step kinds (`x:refund`), by kind. */
  readonly actions?: Readonly<Record<string, FlowAction>>
  /** Event types the destination sends the app (default the subscription and invoice events). */
  readonly eventTypes?: readonly string[]
  /** Resources whose objects' end state is traced for the rules (`harness.rule.final`), e.g. `['refund']`. */
  readonly objects?: readonly string[]
  /** Whether the acknowledgement rules (`ack.genuine_refused`, `ack.before_durable`) are added (default true). */
  readonly acknowledgement?: boolean
  /**
   * Whether the app also has a Connect endpoint (default false): the harness registers one beside
   * the platform's, at the same URL, for the same `eventTypes`, with its own signing secret
   * (`env.connectSecrets()`). The provider sends the connected accounts' events (each carrying
   * their `account`) to it alone, so without it the app never hears of them.
   */
  readonly connect?: boolean
}

/** A rule set: the flows driven, the projection and effect rules, ready for `checkRules`. */
export interface RuleSet<App> extends Omit<RuleSetSpec<App>, 'acknowledgement'> {
  readonly objects: readonly string[]
}

/**
 * Defines a rule set: the flows to drive, the rules the app must keep (effect rules such as
 * `atMostOnce`, `exactlyOnce`, `onlyWhile`, `neverAfter`; state rules through `stateMatches`),
 * with the acknowledgement rule added unless `acknowledgement: false`. A user with webhook code of
 * another kind (refunds, disputes, Connect onboarding) writes one of these, not a harness.
 *
 * @example
 * const refunds = defineRuleSet({
 *   name: 'refunds',
 *   rules: [atMostOnce('credit.refund', { name: 'refunds.credited_once' })],
 *   workload: { extraSteps: [refundStep] },
 *   actions: { 'x:refund': refundAction },
 *   eventTypes: ['charge.refunded', 'refund.updated'],
 * })
 */
export function defineRuleSet<App>(spec: RuleSetSpec<App>): RuleSet<App> {
  if (typeof spec?.name !== 'string' || spec.name === '')
    throw new HarnessInputError("defineRuleSet: option 'name' must be a non-empty string")
  if (!Array.isArray(spec.rules))
    throw new HarnessInputError(`defineRuleSet(${spec.name}): option 'rules' must be an array of rules`)
  if (spec.connect !== undefined && typeof spec.connect !== 'boolean')
    throw new HarnessInputError(
      `defineRuleSet(${spec.name}): option 'connect' must be a boolean, got ${shownValue(spec.connect)}`,
    )
  spec.rules.forEach((r: Partial<Rule<App>>, i) => {
    if (typeof r?.name !== 'string' || typeof r.check !== 'function')
      throw new HarnessInputError(`defineRuleSet(${spec.name}): rules[${i}] must be a rule ({ name, check })`)
  })
  const { acknowledgement, ...rest } = spec
  const ack = acknowledgement === false ? [] : [acknowledgesGenuine() as Rule<App>, acknowledgesDurably() as Rule<App>]
  return { ...rest, rules: [...spec.rules, ...ack], objects: spec.objects ?? [] }
}
