import type { TraceEntry } from '#kernel/index.js'
import { refuseArgument } from '../refuse-argument.js'
import { acknowledgesDurably } from '../rules/acknowledges-durably.js'
import { acknowledgesGenuine } from '../rules/acknowledges-genuine.js'
import { checkRuleTrace } from '../rules/check-rules.js'
import { exactlyOnce, type FinalStates } from '../rules/exactly-once.js'
import type { ObjectState } from '../rules/object-state.js'
import { onlyWhile } from '../rules/only-while.js'
import type { Rule } from '../rules/rule.js'
import type { RuleHistory } from '../rules/rule-history.js'
import { refuseNotEntries } from '../validate-input.js'
import { traceChecker } from './checker.js'
import type { Violation } from './violation.js'

/** Options of the fulfilment checks. */
export interface FulfilmentCheckOptions {
  /**
   * Whether the client may fulfil a session whose delayed payment has not cleared yet, as long as
   * it reverses the fulfilment when the payment fails. Default false: fulfil only once
   * `payment_status` is `paid` (the provider's own fulfilment guide).
   */
  readonly provisional?: boolean
}

/**
 * Whether a session's state obliges the seller to deliver: complete and paid, or complete with
 * nothing to pay.
 *
 * @example
 * sessionPaid({ status: 'complete', payment_status: 'unpaid' }) // false (a delayed payment pending)
 */
export function sessionPaid(state: { readonly status: unknown; readonly payment_status: unknown }): boolean {
  refuseArgument('sessionPaid', 'state', state, 'object')
  return state.status === 'complete' && (state.payment_status === 'paid' || state.payment_status === 'no_payment_required')
}

/** Each session's end state (`harness.fulfil.session`: its status, whether its delayed payment failed, whether the app could know it was paid). */
function sessionFinals(history: RuleHistory): FinalStates {
  const out = new Map<string, { state: ObjectState; entry: TraceEntry }>()
  for (const e of history.entries)
    if (e.kind === 'harness.fulfil.session') out.set(String(e.data.id), { state: e.data as unknown as ObjectState, entry: e })
  return out
}

/**
 * The fulfilment rule set's rules, over the `order.fulfil` and `order.reverse` effects the shop's
 * order desk records (with their causal context) and each session's end state:
 *
 * - `fulfilment.unpaid` (unless `provisional`): nothing fulfilled unless the provider's session is
 *   paid then and what the app acted on (its own API read of the session, else the event it
 *   handled when that is the session) shows it paid; nothing left fulfilled of a session unpaid
 *   at the end. Fulfilling on `payment_intent.succeeded` after looking the session up is allowed.
 * - `fulfilment.once`: a session paid at the end fulfilled exactly once and never reversed; at
 *   most once when nothing told the app it was paid (every such delivery failed, no page shown).
 * - `fulfilment.reversed`: a session whose delayed payment failed is not left fulfilled.
 * - `ack.genuine_refused`: every genuine delivery answered 2xx.
 *
 * @example
 * checkRuleTrace(sim.trace.entries(), fulfilmentRules({ provisional: true }))
 */
export function fulfilmentRules(options: FulfilmentCheckOptions = {}): Rule[] {
  refuseArgument('fulfilmentRules', 'options', options, 'options')
  const paid = (s: ObjectState) => sessionPaid({ status: s.status, payment_status: s.payment_status })
  const once = exactlyOnce('order.fulfil', {
    name: 'fulfilment.once',
    when: paid,
    reversal: 'order.reverse',
    finals: sessionFinals,
    known: (key, h) => sessionFinals(h).get(key)?.state.known === true,
    leftoverName: (final) => (final?.async_failed === true ? 'fulfilment.reversed' : 'fulfilment.unpaid'),
  })
  const ack = [acknowledgesGenuine(), acknowledgesDurably()]
  if (options.provisional) return [once, ...ack]
  return [onlyWhile('order.fulfil', paid, { name: 'fulfilment.unpaid', what: 'paid' }), once, ...ack]
}

/**
 * Judges a fulfilment client over its run's trace by {@link fulfilmentRules}.
 *
 * @example
 * checkFulfilmentTrace(sim.trace.entries()) // []
 */
export function checkFulfilmentTrace(entries: readonly TraceEntry[], options: FulfilmentCheckOptions = {}): Violation[] {
  refuseNotEntries('checkFulfilmentTrace', entries)
  return checkRuleTrace(entries, fulfilmentRules(options))
}

/**
 * `fulfilment`: the checker form for scenarios and `checkerRegistry`.
 *
 * @example
 * fulfilmentChecker.check({ entries, requests: [], deliveries: [] })
 */
export const fulfilmentChecker = traceChecker(
  'fulfilment',
  (entries: readonly TraceEntry[]) => checkFulfilmentTrace(entries),
  'every paid session fulfilled exactly once, no unpaid one fulfilled',
)
