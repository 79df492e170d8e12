import type { TraceEntry } from '#kernel/index.js'
import { type MirroredSubscription, mirrorDifferences } from '../flows/subscription-fields.js'
import { refuseArgument } from '../refuse-argument.js'
import { acknowledgesDurably } from '../rules/acknowledges-durably.js'
import { acknowledgesGenuine } from '../rules/acknowledges-genuine.js'
import { atMostOnce } from '../rules/at-most-once.js'
import { checkRuleTrace } from '../rules/check-rules.js'
import type { Rule } from '../rules/rule.js'
import type { AcceptedEvent, RuleHistory } from '../rules/rule-history.js'
import { refuseNotEntries } from '../validate-input.js'
import { traceChecker } from './checker.js'
import { notGenuineDelivery } from './not-genuine-delivery.js'
import { type Violation, violation } from './violation.js'

/**
 * What the app promises about access, status by status: access is REQUIRED for what the policy
 * grants (an app that revokes earlier fails), and refused for the rest.
 */
export interface AccessPolicy {
  /** Statuses whose subscriptions grant access (default `['active', 'trialing']`; add `past_due`, `incomplete`). */
  readonly grants?: readonly string[]
  /** How long after its current period started a `past_due` subscription keeps access (a grace the app promises). */
  readonly pastDueGraceMs?: number
  /** Whether a subscription set to cancel at period end keeps access until then (default true). */
  readonly cancelAtPeriodEndKeepsAccess?: boolean
}

/** Options of the subscription mirror checks. */
export interface MirrorCheckOptions {
  /**
   * How long after a subscription turned `past_due` the client may still grant access (a grace
   * it is allowed, not required, to give). Default 0. For a grace the app promises, `access.pastDueGraceMs`.
   */
  readonly pastDueGraceMs?: number
  /** The app's access policy (default: `active` and `trialing` grant access, nothing else does). */
  readonly access?: AccessPolicy
}

/** A subscription of a customer at an access checkpoint. */
interface SubscriptionAt {
  readonly id: string
  readonly status: string
  /** When it turned `past_due` (virtual ms), null otherwise. */
  readonly since: number | null
  readonly cancelAtPeriodEnd: boolean
  /** Start of its current period (Unix seconds). */
  readonly periodStart: number | null
}

interface AccessData {
  readonly customer: string
  readonly at: number
  readonly granted: boolean
  readonly subscriptions: readonly SubscriptionAt[]
}

interface CompareData {
  readonly id: string
  readonly provider: MirroredSubscription
  readonly mirror: MirroredSubscription | null
}

/** Whether the policy requires access for this subscription now. */
function required(s: SubscriptionAt, at: number, policy: AccessPolicy): boolean {
  const grace = policy.pastDueGraceMs
  if (s.status === 'past_due' && grace !== undefined && s.periodStart !== null && at < s.periodStart * 1000 + grace) return true
  if (!(policy.grants ?? ['active', 'trialing']).includes(s.status)) return false
  return !(s.cancelAtPeriodEnd && policy.cancelAtPeriodEndKeepsAccess === false)
}

/** `mirror.access_granted` and `mirror.access_withheld`: the gate follows the policy at every settled checkpoint. */
function accessRule(options: MirrorCheckOptions): Rule {
  const policy = options.access ?? {}
  const tolerance = options.pastDueGraceMs ?? 0
  return {
    name: 'mirror.access',
    description: 'access granted exactly where the policy grants it',
    check(history) {
      const out: Violation[] = []
      const reported = new Set<string>()
      for (const e of history.entries) {
        if (e.kind !== 'harness.mirror.access') continue
        const a = e.data as unknown as AccessData
        const must = a.subscriptions.filter((s) => required(s, a.at, policy))
        const may = (s: SubscriptionAt) =>
          required(s, a.at, policy) || (s.status === 'past_due' && s.since !== null && a.at - s.since < tolerance)
        const list = a.subscriptions
          .map((s) => `${s.id} ${s.status}${s.cancelAtPeriodEnd ? ' (cancels at period end)' : ''}`)
          .join(', ')
        if (a.granted && !a.subscriptions.some(may) && !reported.has(`granted:${a.customer}`)) {
          reported.add(`granted:${a.customer}`)
          out.push(
            violation(
              'mirror.access_granted',
              `${a.customer} was granted access, which the policy does not give to ${list || 'no subscription'}`,
              [e],
            ),
          )
        }
        if (!a.granted && must.length > 0 && !reported.has(`withheld:${a.customer}`)) {
          reported.add(`withheld:${a.customer}`)
          out.push(
            violation(
              'mirror.access_withheld',
              `${a.customer} was refused access, which the policy grants to ${must.map((s) => `${s.id} ${s.status}`).join(', ')}`,
              [e],
            ),
          )
        }
      }
      return out
    },
  }
}

/**
 * The subscription events the app refused between an acknowledged event and the comparison, as a
 * hint: a refusal undoes nothing the app wrote before it (the delivered payload stored before the
 * signature check or the API read succeeded), so the wrong copy may be that write.
 */
function refusedSince(history: RuleHistory, from: TraceEntry, to: TraceEntry): string | undefined {
  const refused = history.entries.filter(
    (e) =>
      e.kind === 'harness.rule.refused' &&
      e.seq > from.seq &&
      e.seq < to.seq &&
      String(e.data.type).startsWith('customer.subscription.'),
  )
  if (refused.length === 0) return undefined
  const shown = [...new Map(refused.map((e) => [String(e.data.event), e])).values()].slice(0, 3)
  const how = (e: TraceEntry) =>
    `${String(e.data.event)} (${String(e.data.type)}, answered ${String(e.data.status)}${Number(e.data.failedReads) > 0 ? ' after a failed API read' : ''})`
  return `${shown.map(how).join(', ')}: a write made before answering a refusal stays (the delivered payload stored before the signature check or the API read succeeded); write only what a successful read returns, after verifying (else an event answered 2xx without being applied)`
}

/**
 * The latest event the app accepted about the subscription before the comparison, when it already
 * showed the provider's value of the first wrong field (status or the cancellation flag, the fields
 * an event's state carries): the app was told the truth and kept the old copy.
 */
function unapplied(history: RuleHistory, at: TraceEntry, c: CompareData, wrong: readonly string[]): string | undefined {
  const field = wrong[0] === 'status' ? 'status' : wrong[0] === 'cancelAtPeriodEnd' ? 'cancel_at_period_end' : undefined
  if (field === undefined) return undefined
  const accepted = history.accepted().filter((a) => a.entry.seq < at.seq)
  for (let i = accepted.length - 1; i >= 0; i--) {
    const a = accepted[i] as AcceptedEvent
    if (a.object !== c.id) continue
    if (a.state?.[field] !== c.provider[wrong[0] as keyof typeof c.provider]) return undefined
    const told = `though the app acknowledged ${a.event} (${a.type}), which showed the provider's ${field}`
    const refused = refusedSince(history, a.entry, at)
    if (refused !== undefined) return `${told}, and after it refused ${refused}`
    // Events about other objects accepted since (an invoice): one of them may have been written over it.
    const since = [...new Map(accepted.slice(i + 1).map((b) => [b.type, b])).values()].slice(0, 3)
    if (since.length === 0)
      return `${told}: an event answered 2xx without being applied (an idempotency key coarser than the event id, an ordering check that drops it)`
    return `${told}, and after it ${since.map((b) => `${b.event} (${b.type})`).join(', ')}: the subscription's state written from an event about another object (a paid invoice taken for an active subscription), or an event answered 2xx without being applied (an idempotency key coarser than the event id, an ordering check that drops it)`
  }
  return undefined
}

/**
 * The delivery that was not genuine (a forgery, an old replay) whose claim the app took for this
 * subscription (`harness.forged.adopted`) before the comparison, when the copy still holds what it
 * claimed in every wrong field: that write, not a dropped event, is why the copy is wrong.
 */
function forgedWrite(history: RuleHistory, at: TraceEntry, c: CompareData, wrong: readonly string[]): string | undefined {
  const mirror = c.mirror
  if (mirror === null || wrong.length === 0) return undefined
  const held = wrong.map((f) => `${f} ${String(mirror[f as keyof MirroredSubscription])}`)
  const adopted = history.entries.filter(
    (e) =>
      e.kind === 'harness.forged.adopted' &&
      e.seq < at.seq &&
      e.data.object === c.id &&
      held.every((pair) => String(e.data.claimed).split(', ').includes(pair)),
  )
  const last = adopted[adopted.length - 1]
  if (last === undefined) return undefined
  const event = String(last.data.event)
  const forged = history.entries.find((e) => e.kind === 'harness.forged' && e.data.event === event)
  const how = notGenuineDelivery(event, forged, true)
  return `as ${how} claimed, which the app wrote though the provider never sent it (flow.forgery_ignored): verify the signature on the raw body before acting, and write only what a read of the subscription returns`
}

/**
 * When the last event about the subscription the app accepted was made in the same second as an
 * earlier one it had already accepted: both carry one `created`, so an app that skips an event not
 * newer than the last it applied (deduplicating or ordering by `created`) drops the second change.
 */
function sameSecond(history: RuleHistory, at: TraceEntry, c: CompareData): string | undefined {
  const emitted = new Map(history.entries.filter((e) => e.kind === 'event.emitted').map((e) => [String(e.data.id), e]))
  const about = history.accepted().filter((a) => a.entry.seq < at.seq && a.object === c.id)
  const last = about[about.length - 1]
  const made = last === undefined ? undefined : emitted.get(last.event)
  if (last === undefined || made === undefined) return undefined
  // Delivered in the order made, so the last one accepted is the newer change (not a reordered older
  // one); both changes of a subscription that existed (its creation shares a second with its activation).
  const earlier = about.find((a) => {
    const e = emitted.get(a.event)
    if (a.type === 'customer.subscription.created') return false
    return e !== undefined && e.seq < made.seq && Math.floor(e.at / 1000) === Math.floor(made.at / 1000)
  })
  if (earlier === undefined) return undefined
  return `though the app acknowledged ${last.event} (${last.type}), made in the same second as ${earlier.event} (${earlier.type}), which it had acknowledged before: two changes of one subscription can share \`created\`, so an app that skips an event not newer than the last it applied (deduplicating or ordering by \`created\`) drops the second; deduplicate by event id and take the state from a read of the subscription`
}

/**
 * When only the plan or the seats are wrong and the app accepted an update of the subscription:
 * the update was applied without its items (status and period copied, `items` kept from creation).
 */
function itemsUnapplied(history: RuleHistory, at: TraceEntry, c: CompareData, wrong: readonly string[]): string | undefined {
  if (wrong.length === 0 || !wrong.every((f) => f === 'price' || f === 'quantity')) return undefined
  const updates = history
    .accepted()
    .filter((a) => a.entry.seq < at.seq && a.object === c.id && a.type === 'customer.subscription.updated')
  const last = updates[updates.length - 1]
  if (last === undefined) return undefined
  return `though the app acknowledged ${last.event} (customer.subscription.updated) and its status and period follow the provider: a plan or seat change is an update of the subscription's items (items.data[0].price, items.data[0].quantity), so copy them from every update, not only at creation (or a delivered payload older than the copy was written over it)`
}

const converged: Rule = {
  name: 'mirror.converged',
  description: 'the mirror equals the provider once the deliveries settled',
  check(history) {
    const out: Violation[] = []
    const reported = new Set<string>()
    for (const e of history.entries) {
      if (e.kind !== 'harness.mirror.subscription') continue
      const c = e.data as unknown as CompareData
      if (reported.has(c.id)) continue
      const wrong = c.mirror === null ? [] : mirrorDifferences(c.mirror, c.provider)
      if (c.mirror !== null && wrong.length === 0) continue
      reported.add(c.id)
      const what = wrong
        .map((f) => `${f} ${JSON.stringify(c.mirror?.[f])} (provider: ${JSON.stringify(c.provider[f])})`)
        .join(', ')
      const dropped =
        c.mirror === null
          ? undefined
          : (forgedWrite(history, e, c, wrong) ??
            sameSecond(history, e, c) ??
            unapplied(history, e, c, wrong) ??
            itemsUnapplied(history, e, c, wrong))
      out.push(
        violation(
          'mirror.converged',
          c.mirror === null
            ? `${c.id} is missing from the mirror, though the app acknowledged the latest event about it`
            : dropped !== undefined
              ? `${c.id} mirrored with ${what}, ${dropped}`
              : `${c.id} mirrored with ${what}, though the app acknowledged the latest event about it: store what a read of the subscription returns, and nothing before the read succeeds (a delivered payload may be older than what the app holds), and apply every event answered 2xx (an idempotency key coarser than the event id, or an ordering check, drops later changes)`,
          [e],
        ),
      )
    }
    return out
  },
}

/**
 * The subscription mirror rule set's rules:
 *
 * - `mirror.converged`: the mirror equals the provider's object whenever the app has acknowledged
 *   the latest event about it, after every step and at the end (status, price, quantity, current
 *   period end, cancel at period end).
 * - `mirror.access_granted`: access granted where the `access` policy gives none (past the
 *   tolerated `pastDueGraceMs` of `past_due`).
 * - `mirror.access_withheld`: access refused where the policy grants it (`active`, `trialing` by
 *   default; `past_due` within a promised grace; a subscription cancelling at period end).
 * - `mirror.welcome_once`: the `email.welcome` effect at most once per subscription.
 * - `ack.genuine_refused`: every genuine delivery answered 2xx.
 *
 * @example
 * checkRuleTrace(sim.trace.entries(), subscriptionMirrorRules({ access: { pastDueGraceMs: 7 * 86_400_000 } }))
 */
export function subscriptionMirrorRules(options: MirrorCheckOptions = {}): Rule[] {
  refuseArgument('subscriptionMirrorRules', 'options', options, 'options')
  return [
    converged,
    accessRule(options),
    atMostOnce('email.welcome', { name: 'mirror.welcome_once' }),
    acknowledgesGenuine(),
    acknowledgesDurably(),
  ]
}

/**
 * Judges a subscription mirror over its run's trace by {@link subscriptionMirrorRules}:
 * `harness.mirror.access` entries (the client's `hasAccess` answer for a customer whose
 * subscription events it has all accepted, with the customer's subscriptions then) and
 * `harness.mirror.subscription` entries (the mirror beside the provider's object).
 *
 * @example
 * checkSubscriptionMirrorTrace(sim.trace.entries(), { pastDueGraceMs: 3 * 86_400_000 }) // []
 */
export function checkSubscriptionMirrorTrace(entries: readonly TraceEntry[], options: MirrorCheckOptions = {}): Violation[] {
  refuseNotEntries('checkSubscriptionMirrorTrace', entries)
  return checkRuleTrace(entries, subscriptionMirrorRules(options))
}

/**
 * `subscription-mirror`: the checker form (default options) for scenarios and `checkerRegistry`.
 *
 * @example
 * subscriptionMirrorChecker.check({ entries, requests: [], deliveries: [] })
 */
export const subscriptionMirrorChecker = traceChecker(
  'subscription-mirror',
  (entries) => checkSubscriptionMirrorTrace(entries),
  'the mirror equals the provider and access follows entitlement',
)
