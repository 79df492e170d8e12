import fc from 'fast-check'
import type { MirrorCheckOptions } from '../checkers/subscription-mirror-checker.js'
import { HarnessInputError } from '../validate-input.js'
import type { FlowStep } from './flow-program.js'
import { checkFlows, type FlowCheckOptions, type FlowCheckResult } from './flow-property.js'
import { flowSubjectOptions } from './flow-subject-options.js'
import { mirrorSubject, type SubscriptionMirrorFactory } from './mirror-subject.js'

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
  if (typeof factory !== 'function')
    throw new HarnessInputError(
      'checkSubscriptionMirror: expected a mirror factory (env) => { handler, subscriptions, hasAccess }',
    )
  const { pastDueGraceMs, access, ...rest } = options
  const check = flowSubjectOptions('checkSubscriptionMirror', 'mirror', {
    ...(pastDueGraceMs === undefined ? {} : { pastDueGraceMs }),
    ...(access === undefined ? {} : { access }),
  })
  return checkFlows(
    'checkSubscriptionMirror',
    () => mirrorSubject(factory, check, 'checkSubscriptionMirror'),
    { ...rest, workload: { episodes: [failingRenewal], episodeShare: 0.1, ...rest.workload } },
    { factory, subject: { kind: 'mirror', check } },
  )
}

// A renewal failing (a subscription turning past_due) needs the card to fail before a period ends:
// drawn as one episode now and then (a tenth of the draws, leaving room for the other stories), so
// access past the grace is checked on every seed.
const failingRenewal: fc.Arbitrary<readonly FlowStep[]> = fc.tuple(
  fc.record({ kind: fc.constant('fail_card' as const), customer: fc.constantFrom(0, 0, 0, 1, 2) }),
  fc.constant({ kind: 'advance' as const, ms: 32 * 86_400_000 }),
)
