import type { DunningCheckOptions } from '../checkers/dunning-checker.js'
import { refuseArgument } from '../refuse-argument.js'
import { HarnessInputError } from '../validate-input.js'
import { dunningWorkload } from './dunning-steps.js'
import { type DunningClientFactory, dunningSubject } from './dunning-subject.js'
import { checkFlows, type FlowCheckOptions, type FlowCheckResult } from './flow-property.js'
import { flowSubjectOptions } from './flow-subject-options.js'
import { refuseBadWorkload } from './workload-input.js'

/**
 * Ready-made property for a dunning client: over generated billing flows (renewals and trial ends
 * failing on `pm_card_chargeCustomerFail`, the clock moved across the automatic retry schedule,
 * cards fixed before the next retry or invoices paid at once, several subscriptions of one
 * customer failing together, cancellations, the app's endpoint down through some of a renewal's
 * retries, two events of one invoice in one second; `dunningWorkload`) under every delivery and API fault, "one notice per failed invoice
 * attempt cycle, none once the invoice is paid, restored once on `invoice.paid`", and the account
 * restricted exactly while an invoice is written off (`standing` states what the app promises once
 * the business voids one). The counterexample is shrunk to a 1-minimal program.
 *
 * @example
 * const result = await checkDunning(myDunning, { numRuns: 100 })
 * expect(result.violations ?? []).toEqual([])
 */
export async function checkDunning(
  factory: DunningClientFactory,
  options: FlowCheckOptions & DunningCheckOptions = {},
): Promise<FlowCheckResult> {
  refuseArgument('checkDunning', 'options', options, 'options')
  if (typeof factory !== 'function') throw new HarnessInputError('checkDunning: expected a dunning factory (env) => { handler }')
  const { standing, ...rest } = options
  const own = flowSubjectOptions('checkDunning', 'dunning', standing === undefined ? {} : { standing })
  // Checked here, before the property's own workload is built on it, so the refusal names checkDunning.
  refuseBadWorkload('checkDunning', rest.workload)
  return checkFlows(
    'checkDunning',
    () => dunningSubject(factory, 'checkDunning', own),
    { ...rest, workload: dunningWorkload(rest.workload) },
    { factory, subject: { kind: 'dunning', options: own } },
  )
}
