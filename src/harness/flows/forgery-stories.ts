import { forgedType } from './flow-forgery.js'
import type { CoverageTarget } from './flow-graft.js'
import { madeLast, STORIES, type Story } from './subscription-stories.js'

// What the attacker copies to forge about an object of a kind in a state: the type whose latest
// event in a story ending so is about that very object (the latest `invoice.paid` may be about the
// first invoice, the latest failure notice is about the renewal's).
const FORGED_FROM: Readonly<Record<string, string>> = {
  'subscription|trialing': 'customer.subscription.created',
  'invoice|open': 'invoice.payment_failed',
  'invoice|void': 'invoice.voided',
  'invoice|paid': 'invoice.paid',
  'invoice_payment|paid': 'invoice_payment.paid',
  'payment_intent|requires_payment_method': 'payment_intent.payment_failed',
  'payment_intent|canceled': 'payment_intent.canceled',
  'payment_intent|succeeded': 'payment_intent.succeeded',
  'charge|failed': 'charge.failed',
  'customer|none': 'customer.updated',
}

/**
 * For an attacker's forgery no story names (its type follows from its object's kind and state,
 * so a story need not make it): the type to copy and the stories of steps `drawn` allows that end
 * with an object of that kind in the target's state, its latest event of that type about it.
 *
 * @example
 * forgeryStories({ type: 'invoice.paid', state: 'open', fault: 'forged', deploy: 'none' }, () => true)
 * // { aim: 'invoice.payment_failed', stories: [...] }
 */
export function forgeryStories(
  target: CoverageTarget,
  drawn: (kind: string) => boolean,
): { readonly aim: string; readonly stories: readonly Story[] } | undefined {
  for (const [about, aim] of Object.entries(FORGED_FROM)) {
    const [kind = '', state = ''] = about.split('|')
    if (state !== target.state || forgedType(kind, state) !== target.type) continue
    const stories = STORIES.filter(
      (s) => s.ends[kind] === state && madeLast(s, aim) !== undefined && s.steps.every((x) => drawn(x.kind)),
    )
    if (stories.length > 0) return { aim, stories }
  }
  return undefined
}
