import type { MirrorCheckOptions } from '../checkers/subscription-mirror-checker.js'
import { refuseArgument } from '../refuse-argument.js'
import { HarnessInputError } from '../validate-input.js'
import { checkFlows, type FlowCheckOptions, type FlowCheckResult } from './flow-property.js'
import { flowSubjectOptions } from './flow-subject-options.js'
import { mirrorWorkload } from './mirror-steps.js'
import { mirrorSubject, type SubscriptionMirrorFactory } from './mirror-subject.js'
import { refuseBadWorkload } from './workload-input.js'

/** Settings of {@link checkSubscriptionMirror}. */
export interface SubscriptionMirrorOptions extends FlowCheckOptions, MirrorCheckOptions {}

/**
 * Ready-made property for a subscription mirror / access gate: over generated billing flows
 * (subscriptions created with and without trials, upgraded, downgraded, seats changed, trials
 * ended, renewals failing on `pm_card_chargeCustomerFail` and recovering, cancellations now and at
 * period end, months passing) under every delivery and API fault, "once the deliveries settle the
 * mirror equals the provider's objects; access is never granted without an active or trialing
 * subscription (past `pastDueGraceMs` of `past_due`) and never withheld from one who has it";
 * `access` states the app's own policy (statuses that grant access, a promised grace), under
 * which access is required where the policy grants it (see `AccessPolicy`).
 * The counterexample is shrunk to a 1-minimal program.
 *
 * @example
 * const result = await checkSubscriptionMirror(myMirror, { numRuns: 100, headerPrefix: 'Stripe' })
 * expect(result.violations ?? []).toEqual([])
 */
export async function checkSubscriptionMirror(
  factory: SubscriptionMirrorFactory,
  options: SubscriptionMirrorOptions = {},
): Promise<FlowCheckResult> {
  refuseArgument('checkSubscriptionMirror', 'options', options, 'options')
  if (typeof factory !== 'function')
    throw new HarnessInputError(
      'checkSubscriptionMirror: expected a mirror factory (env) => { handler, subscriptions, hasAccess }',
    )
  const { pastDueGraceMs, access, ...rest } = options
  const check = flowSubjectOptions('checkSubscriptionMirror', 'mirror', {
    ...(pastDueGraceMs === undefined ? {} : { pastDueGraceMs }),
    ...(access === undefined ? {} : { access }),
  })
  // Checked here, before the property's own workload is built on it, so the refusal names checkSubscriptionMirror.
  refuseBadWorkload('checkSubscriptionMirror', rest.workload)
  return checkFlows(
    'checkSubscriptionMirror',
    () => mirrorSubject(factory, check, 'checkSubscriptionMirror'),
    { ...rest, workload: mirrorWorkload(rest.workload) },
    { factory, subject: { kind: 'mirror', check } },
  )
}
