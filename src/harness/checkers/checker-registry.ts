import { refuseArgument } from '../refuse-argument.js'
import type { Verdict } from '../scenario/run-result.js'
import { billingChecker } from './billing-checker.js'
import type { Checker, History } from './checker.js'
import { clientChecker } from './client-checker.js'
import { deliveriesAcknowledgedChecker } from './deliveries-acknowledged-checker.js'
import { deliveryChecker } from './delivery-checker.js'
import { deterministicChecker } from './deterministic-checker.js'
import { dunningChecker } from './dunning-checker.js'
import { fulfilmentChecker } from './fulfilment-checker.js'
import { noDuplicateDeliveriesChecker } from './no-duplicate-deliveries-checker.js'
import { noServerErrorsChecker } from './no-server-errors-checker.js'
import { receiverChecker } from './receiver-checker.js'
import { signaturesValidChecker } from './signatures-valid-checker.js'
import { subscriptionMirrorChecker } from './subscription-mirror-checker.js'
import { usageChecker } from './usage-checker.js'

/**
 * Every checker by the name a scenario's `expectations.checkers` uses: the scenario checkers over
 * requests and deliveries, and the property harness's trace checkers.
 *
 * @example
 * checkerRegistry.get('no-server-errors')?.name // 'no-server-errors'
 */
export const checkerRegistry = new Map<string, Checker>(
  [
    noServerErrorsChecker,
    signaturesValidChecker,
    deliveriesAcknowledgedChecker,
    noDuplicateDeliveriesChecker,
    deterministicChecker,
    usageChecker,
    clientChecker,
    receiverChecker,
    deliveryChecker,
    billingChecker,
    subscriptionMirrorChecker,
    dunningChecker,
    fulfilmentChecker,
  ].map((c) => [c.name, c]),
)

/**
 * Adds or replaces a checker under its name.
 *
 * @example
 * registerChecker({ name: 'no-429', check: ({ requests }) => requests.filter((r) => r.status === 429).map((r) => recordViolation('no-429', r.path, [r])) })
 */
export function registerChecker(checker: Checker): void {
  refuseArgument('registerChecker', 'checker', checker, 'checker')
  checkerRegistry.set(checker.name, checker)
}

/**
 * Runs a checker on a history and says it as a report verdict (`checker <name>`): what held, or
 * the first violation with its witnesses.
 *
 * @example
 * const verdict = await verdictOf(noServerErrorsChecker, history)
 */
export async function verdictOf(checker: Checker, history: History): Promise<Verdict> {
  refuseArgument('verdictOf', 'checker', checker, 'checker')
  refuseArgument('verdictOf', 'history', history, 'history')
  const name = `checker ${checker.name}`
  const violations = await checker.check(history)
  const first = violations[0]
  if (first === undefined) return { name, ok: true, message: checker.holds?.(history) ?? 'no violation' }
  const message = violations.length === 1 ? first.message : `${violations.length} violations; first: ${first.message}`
  const witness = first.records ?? { seq: first.witness, entries: first.entries.slice(0, 5) }
  return { name, ok: false, message, witness }
}
