// The three ready-made flow properties as the coverage scripts run them: the reference clients,
// each property's own workload, the event types its rules read (the steering's focus).
import {
  dunningSubject,
  dunningWorkload,
  type FlowCoverageProperty,
  type FlowSubject,
  type FlowWorkload,
  fulfilmentPayments,
  fulfilmentSubject,
  fulfilmentWorkload,
  mirrorSubject,
  mirrorWorkload,
  referenceDunningClient,
  referenceFulfilmentClient,
  referenceSubscriptionMirror,
} from '../../src/harness/index.js'

export interface CoverageProperty {
  readonly name: FlowCoverageProperty
  readonly subject: () => FlowSubject
  readonly workload: FlowWorkload
  readonly focus: readonly string[]
}

export const coverageProperties: readonly CoverageProperty[] = [
  {
    name: 'checkSubscriptionMirror',
    subject: () => mirrorSubject(referenceSubscriptionMirror, {}, 'coverage'),
    workload: mirrorWorkload(),
    focus: ['customer.subscription.', 'invoice.paid', 'invoice.payment_failed'],
  },
  {
    name: 'checkDunning',
    subject: () => dunningSubject(referenceDunningClient, 'coverage'),
    workload: dunningWorkload(),
    focus: ['invoice.paid', 'invoice.payment_failed', 'invoice.marked_uncollectible'],
  },
  {
    name: 'checkFulfilment',
    subject: () => fulfilmentSubject(referenceFulfilmentClient, 'coverage'),
    workload: fulfilmentWorkload(fulfilmentPayments.length),
    focus: ['checkout.session.', 'payment_intent.succeeded'],
  },
]
