import fc from 'fast-check'
import type { Simulator } from '#simulator/index.js'
import type { FlowAction, FlowActionContext } from './flow-actions.js'
import type { EpisodeStep } from './flow-episodes.js'
import type { FlowStep, FlowWorkload } from './flow-program.js'
import { guardedActions } from './guarded-actions.js'

/**
 * Event types a Connect onboarding app is sent: its connected accounts' changes (onboarding,
 * capabilities, a platform's rejection) and the payments made on them.
 */
export const CONNECT_ONBOARDING_EVENT_TYPES: readonly string[] = [
  'account.updated',
  'capability.updated',
  'payment_intent.succeeded',
]

// The connected accounts each run opened, oldest first (a run's simulator is its own fork).
const opened = new WeakMap<Simulator, string[]>()

function accountsOf(ctx: FlowActionContext): string[] {
  let list = opened.get(ctx.sim)
  if (list === undefined) {
    list = []
    opened.set(ctx.sim, list)
  }
  return list
}

/** The connected account a step's number names, wrapping around (-1 the newest). */
function accountOf(ctx: FlowActionContext, step: FlowStep): string | undefined {
  const list = accountsOf(ctx)
  const n = Number((step as { account?: unknown }).account ?? 0)
  return list.length === 0 ? undefined : list[((n % list.length) + list.length) % list.length]
}

/** What a seller submits during onboarding, in test values the provider verifies at once. */
const IDENTITY: Readonly<Record<string, string>> = {
  business_type: 'individual',
  'business_profile[mcc]': '5734',
  'business_profile[url]': 'https://seller.example.com',
  'tos_acceptance[date]': '1767225600',
  'tos_acceptance[ip]': '203.0.113.7',
  'individual[first_name]': 'Jenny',
  'individual[last_name]': 'Rosen',
  'individual[email]': 'jenny@example.com',
  'individual[phone]': '+15555550100',
  'individual[dob][day]': '1',
  'individual[dob][month]': '1',
  'individual[dob][year]': '1990',
  'individual[address][line1]': '510 Townsend St',
  'individual[address][city]': 'San Francisco',
  'individual[address][state]': 'CA',
  'individual[address][postal_code]': '94103',
  'individual[ssn_last_4]': '0000',
}

/**
 * The actions of Connect onboarding flows, by step kind, through the public API as a platform's
 * back office makes them: `x:open_account` (a custom account requesting `transfers`, and
 * `card_payments` when `cards`), `x:submit_details` (the seller's identity, or its bank account:
 * each part changes `requirements`, and both together `details_submitted`, `charges_enabled`
 * when card payments were requested, `payouts_enabled`), `x:request_cards` (the `card_payments`
 * capability requested or dropped: `charges_enabled` follows), `x:reject_account` (rejected for
 * fraud, or the rejection undone) and `x:charge_on_account` (a payment made acting for the account
 * with `Stripe-Account`).
 *
 * @example
 * await connectOnboardingActions['x:open_account'](ctx, { kind: 'x:open_account', cards: true })
 */
export const connectOnboardingActions: Readonly<Record<string, FlowAction>> = guardedActions('connectOnboardingActions', {
  async 'x:open_account'(ctx, step) {
    const cards = (step as { cards?: unknown }).cards === true
    const made = await ctx.api('POST', '/v1/accounts', {
      type: 'custom',
      country: 'US',
      email: `seller${accountsOf(ctx).length}@example.com`,
      'capabilities[transfers][requested]': 'true',
      ...(cards ? { 'capabilities[card_payments][requested]': 'true' } : {}),
    })
    if (typeof made.body.id !== 'string') return `account refused (${made.status})`
    accountsOf(ctx).push(made.body.id)
    return `${made.body.id}${cards ? ' with card payments' : ''}`
  },
  async 'x:submit_details'(ctx, step) {
    const id = accountOf(ctx, step)
    if (id === undefined) return 'no account yet'
    const bank = (step as { part?: unknown }).part === 'bank'
    await ctx.api('POST', `/v1/accounts/${id}`, bank ? { external_account: 'btok_us_verified' } : IDENTITY)
    return `${bank ? 'bank account' : 'identity'} of ${id}`
  },
  async 'x:request_cards'(ctx, step) {
    const id = accountOf(ctx, step)
    if (id === undefined) return 'no account yet'
    const requested = (step as { requested?: unknown }).requested !== false
    await ctx.api('POST', `/v1/accounts/${id}/capabilities/card_payments`, { requested: String(requested) })
    return `${requested ? 'requested' : 'dropped'} on ${id}`
  },
  async 'x:reject_account'(ctx, step) {
    const id = accountOf(ctx, step)
    if (id === undefined) return 'no account yet'
    const rejected = await ctx.api('POST', `/v1/accounts/${id}/reject`, { reason: 'fraud_other' })
    if (rejected.status === 200) return `${id} rejected`
    await ctx.api('POST', `/v1/accounts/${id}/unreject`)
    return `${id} unrejected`
  },
  async 'x:charge_on_account'(ctx, step) {
    const id = accountOf(ctx, step)
    if (id === undefined) return 'no account yet'
    const paid = await ctx.api(
      'POST',
      '/v1/payment_intents',
      {
        amount: '1500',
        currency: 'usd',
        payment_method: 'pm_card_visa',
        confirm: 'true',
        'automatic_payment_methods[enabled]': 'true',
        'automatic_payment_methods[allow_redirects]': 'never',
      },
      { account: id },
    )
    return paid.status === 200 ? `paid on ${id}` : `payment refused on ${id} (${paid.status})`
  },
})

/**
 * The steps of Connect onboarding flows, each an arbitrary of one `x:` kind of
 * `connectOnboardingActions`, accounts named by their order of opening (up to three).
 *
 * @example
 * const workload = { extraSteps: connectOnboardingSteps(), builtInSteps: false }
 */
export function connectOnboardingSteps(): fc.Arbitrary<FlowStep>[] {
  const account = fc.integer({ min: -3, max: 2 })
  return [
    fc.record({ kind: fc.constant('x:open_account' as const), cards: fc.boolean() }),
    fc.record({ kind: fc.constant('x:submit_details' as const), account, part: fc.constantFrom('identity', 'bank') }),
    fc.record({ kind: fc.constant('x:submit_details' as const), account, part: fc.constantFrom('identity', 'bank') }),
    fc.record({ kind: fc.constant('x:request_cards' as const), account, requested: fc.boolean() }),
    fc.record({ kind: fc.constant('x:reject_account' as const), account }),
    fc.record({ kind: fc.constant('x:charge_on_account' as const), account }),
  ]
}

/** How late an onboarding step's `account.updated` may reach the app: past the next step's. */
const LATE_UPDATE_MS = 2 * 3_600_000

/**
 * The episodes of Connect onboarding flows, each a short story drawn as one: a seller onboarded
 * in full (identity, then bank account); onboarded, then rejected; and onboarded while the
 * identity step's `account.updated` runs two hours late (a backlog), so it reaches the app after
 * the newer one, twice as often as another.
 *
 * @example
 * const workload = { ...connectOnboardingWorkload(), episodes: connectOnboardingEpisodes() }
 */
export function connectOnboardingEpisodes(): fc.Arbitrary<readonly EpisodeStep[]>[] {
  const open = fc.record({ kind: fc.constant('x:open_account' as const), cards: fc.boolean() })
  const identity = { kind: 'x:submit_details' as const, account: -1, part: 'identity' }
  const bank = { kind: 'x:submit_details' as const, account: -1, part: 'bank' }
  const lateIdentity: EpisodeStep = {
    step: identity,
    faults: [{ fault: 'delay_delivery', count: 1, delay: LATE_UPDATE_MS, operation: 'account.updated' }],
  }
  const late = open.map((o): readonly EpisodeStep[] => [o, lateIdentity, bank])
  return [
    open.map((o): readonly EpisodeStep[] => [o, identity, bank]),
    open.map((o): readonly EpisodeStep[] => [o, identity, bank, { kind: 'x:reject_account', account: -1 }]),
    late,
    late,
  ]
}

/**
 * The workload of Connect onboarding flows: programs that open connected accounts and onboard,
 * change, reject and charge them (no subscriptions), with `connectOnboardingEpisodes` and delivery
 * faults aimed at the accounts' events; `base` overrides any part.
 *
 * @example
 * const onboarding = defineRuleSet({ name: 'onboarding', connect: true, workload: connectOnboardingWorkload(), actions: connectOnboardingActions, rules })
 */
export function connectOnboardingWorkload(base: FlowWorkload = {}): FlowWorkload {
  return {
    ...base,
    builtInSteps: base.builtInSteps ?? false,
    firstStep: base.firstStep ?? fc.record({ kind: fc.constant('x:open_account' as const), cards: fc.boolean() }),
    extraSteps: [...connectOnboardingSteps(), ...(base.extraSteps ?? [])],
    episodes: base.episodes ?? connectOnboardingEpisodes(),
    faultAims: base.faultAims ?? ['account.', 'capability.'],
  }
}
