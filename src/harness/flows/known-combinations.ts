/** The flow properties whose combinations were explored (`knownFlowCombinations`). */
export type FlowCoverageProperty = 'checkSubscriptionMirror' | 'checkDunning' | 'checkFulfilment'

// Written by the exploration script (long campaigns, plain and steered, several seeds; the union,
// never shrinking): per `type|state`, each way of arriving with the letters of where the app stood
// (n: none, r: redeployed, i: in_roll).
const ROWS: Readonly<Record<FlowCoverageProperty, Readonly<Record<string, string>>>> = {
  checkSubscriptionMirror: {
    'charge.created|failed': 'duplicate:nri in_order:nri replayed:nr',
    'charge.created|succeeded': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'charge.failed|failed': 'duplicate:nri in_order:nri replayed:nr',
    'charge.succeeded|succeeded': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'customer.subscription.created|active': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri retry:nri',
    'customer.subscription.created|canceled': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri retry:nri',
    'customer.subscription.created|incomplete_expired': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri retry:nri',
    'customer.subscription.created|incomplete': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri retry:nri',
    'customer.subscription.created|past_due': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri retry:nri',
    'customer.subscription.created|trialing': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri retry:nri',
    'customer.subscription.deleted|active': 'forged:ni',
    'customer.subscription.deleted|canceled': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'customer.subscription.deleted|trialing': 'forged:ni',
    'customer.subscription.updated|active': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri retry:nri',
    'customer.subscription.updated|canceled': 'duplicate:nri forged:ni in_order:nri out_of_order:nri replayed:nri retry:nri',
    'customer.subscription.updated|incomplete_expired':
      'duplicate:nri forged:ni in_order:nri out_of_order:nri replayed:nri retry:nri',
    'customer.subscription.updated|incomplete': 'duplicate:nri forged:ni in_order:nri out_of_order:nri replayed:nr retry:nri',
    'customer.subscription.updated|past_due': 'duplicate:nri forged:ni in_order:nri out_of_order:nri replayed:nri retry:nri',
    'customer.subscription.updated|trialing': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri retry:nri',
    'customer.updated|none': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri',
    'invoice.created|draft': 'duplicate:ni in_order:nri',
    'invoice.created|open': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri',
    'invoice.created|paid': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri retry:nri',
    'invoice.created|void': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri',
    'invoice.finalized|open': 'duplicate:nri in_order:nri out_of_order:nri replayed:i',
    'invoice.finalized|paid': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri retry:nri',
    'invoice.finalized|void': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri',
    'invoice.paid|draft': 'forged:ni',
    'invoice.paid|open': 'forged:ni',
    'invoice.paid|paid': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'invoice.paid|void': 'forged:ni',
    'invoice.payment_failed|open': 'duplicate:nri in_order:nri out_of_order:nr replayed:ni',
    'invoice.payment_failed|paid': 'duplicate:nri forged:ni in_order:nri out_of_order:nri',
    'invoice.payment_failed|void': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri',
    'invoice.payment_succeeded|paid': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'invoice.voided|void': 'duplicate:nri in_order:nri',
    'invoice_payment.paid|paid': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'invoiceitem.created|none': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri',
    'invoiceitem.deleted|none': 'duplicate:nri in_order:nri replayed:nri',
    'payment_intent.canceled|canceled': 'duplicate:nri in_order:nri',
    'payment_intent.created|canceled': 'out_of_order:r',
    'payment_intent.created|requires_payment_method': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri',
    'payment_intent.created|succeeded': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri retry:nri',
    'payment_intent.payment_failed|requires_payment_method': 'duplicate:nri in_order:nri out_of_order:nr replayed:n',
    'payment_intent.payment_failed|succeeded': 'duplicate:nri in_order:nri out_of_order:nri',
    'payment_intent.succeeded|none': 'forged:ni',
    'payment_intent.succeeded|paid': 'forged:ni',
    'payment_intent.succeeded|succeeded': 'duplicate:nri forged:ni in_order:nri replayed:nri retry:nri',
    'payment_method.attached|none': 'duplicate:nri in_order:nri replayed:nri',
  },
  checkDunning: {
    'charge.created|failed': 'duplicate:nri in_order:nri replayed:r',
    'charge.created|succeeded': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'charge.failed|failed': 'duplicate:nri in_order:nri replayed:i',
    'charge.succeeded|succeeded': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'customer.subscription.created|active': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri retry:nri',
    'customer.subscription.created|canceled': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri retry:nri',
    'customer.subscription.created|incomplete_expired': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri',
    'customer.subscription.created|incomplete': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri',
    'customer.subscription.created|past_due': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri retry:nri',
    'customer.subscription.created|trialing': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri retry:nri',
    'customer.subscription.deleted|active': 'forged:ni',
    'customer.subscription.deleted|canceled': 'duplicate:nri in_order:nri replayed:nri',
    'customer.subscription.deleted|trialing': 'forged:n',
    'customer.subscription.updated|active': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri retry:nri',
    'customer.subscription.updated|canceled': 'duplicate:nri forged:ni in_order:nri out_of_order:nri replayed:nri retry:nri',
    'customer.subscription.updated|incomplete_expired': 'duplicate:nri forged:ni in_order:nri out_of_order:nri replayed:n',
    'customer.subscription.updated|incomplete': 'duplicate:nri forged:ni in_order:nri replayed:i',
    'customer.subscription.updated|past_due': 'duplicate:nri forged:ni in_order:nri out_of_order:nri replayed:nri',
    'customer.subscription.updated|trialing': 'duplicate:nri in_order:nri replayed:nri',
    'customer.updated|none': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri',
    'invoice.created|draft': 'duplicate:ni in_order:nri',
    'invoice.created|open': 'duplicate:nri in_order:nri out_of_order:nri',
    'invoice.created|paid': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri retry:nri',
    'invoice.created|uncollectible': 'duplicate:nri in_order:nri out_of_order:nri',
    'invoice.created|void': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri',
    'invoice.finalized|open': 'duplicate:nri in_order:nri out_of_order:nri replayed:r',
    'invoice.finalized|paid': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri retry:nri',
    'invoice.finalized|uncollectible': 'duplicate:nri in_order:nri out_of_order:nri',
    'invoice.finalized|void': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri',
    'invoice.marked_uncollectible|paid': 'duplicate:nri in_order:nri out_of_order:nri',
    'invoice.marked_uncollectible|uncollectible': 'duplicate:nri in_order:nri',
    'invoice.paid|draft': 'forged:n',
    'invoice.paid|open': 'forged:ni',
    'invoice.paid|paid': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'invoice.paid|uncollectible': 'forged:ni',
    'invoice.paid|void': 'forged:ni',
    'invoice.payment_failed|open': 'duplicate:nri in_order:nri out_of_order:nr replayed:nri',
    'invoice.payment_failed|paid': 'duplicate:nri forged:ni in_order:nri out_of_order:nri',
    'invoice.payment_failed|uncollectible': 'duplicate:nri in_order:nri out_of_order:nri',
    'invoice.payment_failed|void': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri',
    'invoice.payment_succeeded|paid': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'invoice.voided|void': 'duplicate:nri in_order:nri',
    'invoice_payment.paid|paid': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'payment_intent.canceled|canceled': 'duplicate:nri in_order:nri',
    'payment_intent.created|requires_payment_method': 'duplicate:nri in_order:nri out_of_order:nri',
    'payment_intent.created|succeeded': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri retry:nri',
    'payment_intent.payment_failed|canceled': 'duplicate:n',
    'payment_intent.payment_failed|requires_payment_method': 'duplicate:nri in_order:nri out_of_order:nr',
    'payment_intent.payment_failed|succeeded': 'duplicate:nri in_order:nri out_of_order:nri',
    'payment_intent.succeeded|none': 'forged:ni',
    'payment_intent.succeeded|succeeded': 'duplicate:nri forged:ni in_order:nri replayed:nri retry:nri',
    'payment_method.attached|none': 'duplicate:nri in_order:nri replayed:nri',
  },
  checkFulfilment: {
    'charge.created|failed': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'charge.created|succeeded': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'charge.failed|failed': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'charge.succeeded|succeeded': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'checkout.session.async_payment_failed|complete/unpaid': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'checkout.session.async_payment_succeeded|complete/paid': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'checkout.session.completed|complete/paid': 'duplicate:nri forged:ni in_order:nri replayed:nri retry:nri',
    'checkout.session.completed|complete/unpaid': 'duplicate:nri forged:ni in_order:nri replayed:nri retry:nri',
    'checkout.session.completed|expired/unpaid': 'forged:ni',
    'checkout.session.expired|expired/unpaid': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'customer.created|none': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'customer.subscription.created|active': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'customer.subscription.created|past_due': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'customer.subscription.updated|active': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'customer.subscription.updated|past_due': 'duplicate:nri forged:ni in_order:nri out_of_order:nri replayed:nri retry:nri',
    'invoice.created|draft': 'duplicate:nri in_order:nri',
    'invoice.created|open': 'duplicate:nri in_order:nri out_of_order:nri',
    'invoice.created|paid': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri retry:nri',
    'invoice.finalized|open': 'duplicate:nri in_order:nri',
    'invoice.finalized|paid': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'invoice.paid|open': 'forged:n',
    'invoice.paid|paid': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'invoice.payment_action_required|open': 'duplicate:nri in_order:nri',
    'invoice.payment_failed|open': 'duplicate:nri in_order:nri',
    'invoice.payment_failed|paid': 'forged:ni',
    'invoice.payment_succeeded|paid': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'invoice_payment.paid|paid': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'payment_intent.canceled|canceled': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'payment_intent.created|canceled': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'payment_intent.created|requires_payment_method': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri retry:nri',
    'payment_intent.created|succeeded': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri retry:nri',
    'payment_intent.payment_failed|requires_payment_method': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri retry:nri',
    'payment_intent.payment_failed|succeeded': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri retry:nri',
    'payment_intent.processing|requires_payment_method': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'payment_intent.processing|succeeded': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'payment_intent.requires_action|requires_payment_method':
      'duplicate:nri in_order:nri out_of_order:nri replayed:nri retry:nri',
    'payment_intent.requires_action|succeeded': 'duplicate:nri in_order:nri out_of_order:nri replayed:nri retry:nri',
    'payment_intent.succeeded|none': 'forged:ni',
    'payment_intent.succeeded|requires_payment_method': 'forged:ni',
    'payment_intent.succeeded|succeeded': 'duplicate:nri forged:ni in_order:nri replayed:nri retry:nri',
    'payment_method.attached|none': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'price.created|none': 'duplicate:nri in_order:nri replayed:nri retry:nri',
    'product.created|none': 'duplicate:nri in_order:nri replayed:nri retry:nri',
  },
}

const DEPLOYS: Readonly<Record<string, string>> = { n: 'none', r: 'redeployed', i: 'in_roll' }

/** A property's rows as `type|state|fault|deploy` keys, sorted. */
function expand(rows: Readonly<Record<string, string>>): readonly string[] {
  return Object.entries(rows)
    .flatMap(([pair, words]) =>
      words.split(' ').flatMap((word) => {
        const [fault, letters = ''] = word.split(':')
        return [...letters].map((l) => `${pair}|${fault}|${DEPLOYS[l] ?? l}`)
      }),
    )
    .sort()
}

/**
 * The (event type, object state on arrival, how it arrived, where the app stood) combinations each
 * ready-made flow property's flows are known to produce with its reference client: the union of
 * long explorations (plain generation and the steered campaign, several seeds, thousands of runs
 * each). What a campaign aims at (`runFlowCampaign`'s `known`) and what a coverage report lists as
 * missing. Another app may meet fewer (a retry needs the app to refuse a delivery) or more.
 * Combinations outside it that can never happen are explained by `impossibleCombination`.
 *
 * @example
 * knownFlowCombinations.checkDunning.includes('invoice.payment_failed|paid|out_of_order|none') // true
 */
export const knownFlowCombinations: Readonly<Record<FlowCoverageProperty, readonly string[]>> = {
  checkSubscriptionMirror: expand(ROWS.checkSubscriptionMirror),
  checkDunning: expand(ROWS.checkDunning),
  checkFulfilment: expand(ROWS.checkFulfilment),
}
