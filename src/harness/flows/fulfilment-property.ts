import { refuseArgument } from '../refuse-argument.js'
import { HarnessInputError } from '../validate-input.js'
import { checkFlows, type FlowCheckOptions, type FlowCheckResult } from './flow-property.js'
import { flowSubjectOptions } from './flow-subject-options.js'
import { fulfilmentPayments, fulfilmentWorkload } from './fulfilment-steps.js'
import { type FulfilmentClientFactory, type FulfilmentSubjectOptions, fulfilmentSubject } from './fulfilment-subject.js'

/** Settings of {@link checkFulfilment}. */
export interface FulfilmentOptions extends FlowCheckOptions, FulfilmentSubjectOptions {}

/**
 * Ready-made property for a fulfilment client: over generated checkout flows (sessions made in
 * `payment` and `subscription` mode, paid on the page with cards that pay, decline or ask for 3-D
 * Secure, or with the delayed bank debit; the success page reached at once, racing the webhook, or
 * reloaded later in any state; sessions expiring; the app redeployed; the clock moved) under every
 * delivery and API fault, "every paid session fulfilled exactly once, no unpaid session fulfilled,
 * a delayed payment that fails reversed or never fulfilled". The counterexample is shrunk to a
 * 1-minimal program.
 *
 * @example
 * const result = await checkFulfilment(myShop, { numRuns: 100 })
 * expect(result.violations ?? []).toEqual([])
 */
export async function checkFulfilment(
  factory: FulfilmentClientFactory,
  options: FulfilmentOptions = {},
): Promise<FlowCheckResult> {
  refuseArgument('checkFulfilment', 'options', options, 'options')
  if (typeof factory !== 'function')
    throw new HarnessInputError('checkFulfilment: expected a fulfilment factory (env) => { handler, successPage }')
  const { payments, provisional, workload, ...rest } = options
  const subject = flowSubjectOptions('checkFulfilment', 'fulfilment', {
    ...(payments === undefined ? {} : { payments }),
    ...(provisional === undefined ? {} : { provisional }),
  })
  return checkFlows(
    'checkFulfilment',
    () => fulfilmentSubject(factory, 'checkFulfilment', subject),
    { ...rest, workload: fulfilmentWorkload((subject.payments ?? fulfilmentPayments).length, workload) },
    { factory, subject: { kind: 'fulfilment', options: subject } },
  )
}
