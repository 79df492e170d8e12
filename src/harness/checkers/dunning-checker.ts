import type { TraceEntry } from '#kernel/index.js'
import { refuseArgument } from '../refuse-argument.js'
import { acknowledgesDurably } from '../rules/acknowledges-durably.js'
import { acknowledgesGenuine } from '../rules/acknowledges-genuine.js'
import { checkRuleTrace } from '../rules/check-rules.js'
import { neverAfter } from '../rules/never-after.js'
import type { Rule } from '../rules/rule.js'
import { describeEffect, type EffectRecord, type RuleHistory } from '../rules/rule-history.js'
import { refuseNotEntries } from '../validate-input.js'
import { traceChecker } from './checker.js'
import { sameSecondHint } from './dunning-same-second.js'
import { type Violation, violation } from './violation.js'

interface Cycle {
  /** The first accepted `invoice.payment_failed` of the invoice before any accepted `invoice.paid`. */
  failed?: TraceEntry
  paid?: TraceEntry
  /**
   * The provider had already settled the invoice (paid or voided) when the app accepted that
   * failure: an app that reads the invoice then owes no notice (and so no restore).
   */
  stale?: boolean
  notices: EffectRecord[]
  restores: EffectRecord[]
}

/** Each invoice's attempt cycle, as the app could know it: the events it accepted and what it told customers. */
function cycles(history: RuleHistory): Map<string, Cycle> {
  const out = new Map<string, Cycle>()
  const cycle = (invoice: string) => {
    let c = out.get(invoice)
    if (c === undefined) {
      c = { notices: [], restores: [] }
      out.set(invoice, c)
    }
    return c
  }
  for (const a of history.accepted()) {
    if (a.object === null) continue
    if (a.type === 'invoice.payment_failed') {
      const c = cycle(a.object)
      if (c.paid === undefined) c.failed ??= a.entry
    } else if (a.type === 'invoice.paid') cycle(a.object).paid ??= a.entry
  }
  const stale = new Set(
    history.entries.filter((e) => e.kind === 'harness.dunning.stale_failure').map((e) => String(e.data.event)),
  )
  for (const c of out.values()) if (c.failed !== undefined && stale.has(String(c.failed.data.event))) c.stale = true
  for (const f of history.effects('dunning.notice')) cycle(f.key).notices.push(f)
  for (const f of history.effects('dunning.restore')) cycle(f.key).restores.push(f)
  return out
}

/** The state fields of an accepted event's object, as a verdict prints them. */
const shown = (state: unknown) =>
  Object.entries((state ?? {}) as Record<string, unknown>)
    .filter(([k]) => k !== 'id' && k !== 'object')
    .map(([k, v]) => `${k} ${String(v)}`)
    .join(', ')

/**
 * What the app did with the failure it accepted: none sent (the failure it accepted, so a
 * condition that skipped it is seen), or more than one (where each was sent; two while handling
 * one event are that event sent again after the app refused it, its claim not kept).
 */
function noticeHint(history: RuleHistory, failed: TraceEntry | undefined, notices: readonly EffectRecord[]): string {
  if (notices.length === 0) {
    if (failed === undefined) return ''
    const accepted = `the app accepted ${String(failed.data.event)} (invoice.payment_failed, showing ${shown(failed.data.state)})`
    const same = sameSecondHint(history, failed)
    if (same !== '') return `: ${accepted}${same}`
    const attempt = Number((failed.data.state as { attempt_count?: unknown } | null)?.attempt_count)
    // The cycle's first failure the app heard of is a later attempt: the earlier ones never reached it.
    if (attempt > 1)
      return `: ${accepted}, the first failure of the cycle it accepted (the earlier attempts' failures never reached it, or it refused them), and sent none: a notice is owed for the first failure the app accepts, whatever its attempt count or next_payment_attempt (null on the last automatic attempt); a condition on either skipped it`
    return `: ${accepted} and sent none (a condition on the event or on a read of the invoice, such as its attempt count or its next retry, skipped it)`
  }
  const [first, second] = notices
  if (first === undefined || second === undefined) return ''
  if (first.event !== null && first.event.id === second.event?.id)
    return `: both while handling ${first.event.id}, which the provider sent again after the app refused it: the claim on the notice did not survive the refusal (written after the notice, or undone when a later call failed); claim it before notifying and keep the claim`
  return `: the first ${describeEffect(first)}; the second ${describeEffect(second)}`
}

const noticeCount: Rule = {
  name: 'dunning.notice_once',
  description: 'exactly one failure notice per failed attempt cycle the app accepted',
  check(history) {
    const out: Violation[] = []
    for (const [invoice, c] of cycles(history)) {
      // Notices after the app accepted `invoice.paid` are `neverAfter`'s: counted here, one would be blamed twice.
      const before = c.notices.filter((n) => c.paid === undefined || n.entry.seq < c.paid.seq)
      const expected = c.failed === undefined ? 0 : 1
      if (before.length === expected || (c.stale && before.length === 0)) continue
      out.push(
        violation(
          'dunning.notice_once',
          expected === 0
            ? `${invoice}: ${before.length} notice(s) for an invoice whose payment never failed`
            : `${invoice}: ${before.length} notice(s) for one failed attempt cycle (expected 1)${noticeHint(history, c.failed, before)}`,
          [...(c.failed ? [c.failed] : []), ...before.map((n) => n.entry)],
        ),
      )
    }
    return out
  },
}

const restoredOnce: Rule = {
  name: 'dunning.restored_once',
  description: 'one restore per failed cycle whose invoice.paid the app accepted, none otherwise',
  check(history) {
    const out: Violation[] = []
    for (const [invoice, c] of cycles(history)) {
      // A stale failure the app rightly left unnoticed needs no restore either.
      const owed = c.failed !== undefined && c.paid !== undefined && !(c.stale && c.notices.length === 0)
      const expected = owed ? 1 : 0
      if (c.restores.length === expected) continue
      out.push(
        violation(
          'dunning.restored_once',
          expected === 0
            ? `${invoice}: ${c.restores.length} restore(s) ${c.failed === undefined ? 'for an invoice that never failed' : 'before the invoice was paid'}`
            : `${invoice}: restored ${c.restores.length} time(s) after it was paid (expected 1)${c.restores.length === 0 && c.paid !== undefined ? sameSecondHint(history, c.paid).replace(/^, /, ': the app accepted its invoice.paid, ') : ''}`,
          [...(c.paid ? [c.paid] : []), ...c.restores.map((r) => r.entry)],
        ),
      )
    }
    return out
  },
}

/**
 * What the app promises about a customer's standing (the `checkDunning` option `standing`).
 *
 * @example
 * const options: DunningCheckOptions = { standing: { liftOnVoid: true } }
 */
export interface DunningCheckOptions {
  readonly standing?: {
    /**
     * Whether the app promises to lift a restriction when the business voids the written-off
     * invoice (forgives the debt). Default: allowed, not required (keeping a forgiven customer
     * restricted is the business's choice); `true` requires it.
     */
    readonly liftOnVoid?: boolean
  }
}

/**
 * Why an account stood wrong, when the app's own action shows it: restricted on a failed payment
 * (even the last automatic attempt, `next_payment_attempt` null, leaves the invoice open and
 * payable), or not restricted though it accepted the write-off.
 */
function standingHint(history: RuleHistory, off: readonly string[], f: EffectRecord | undefined): string {
  if (off.length === 0)
    return f?.event?.type === 'invoice.payment_failed'
      ? ': a failed attempt is not collection giving up, even the last one (next_payment_attempt null): the invoice stays open, payable and past due until it is paid, voided or written off (invoice.marked_uncollectible); restrict on the write-off'
      : ''
  const told = history.accepted().find((a) => a.type === 'invoice.marked_uncollectible' && off.includes(String(a.object)))
  if (told === undefined || f?.kind === 'dunning.reinstate') return ''
  const same = f === undefined ? sameSecondHint(history, told.entry) : ''
  if (same !== '') return `, though it accepted ${told.event} (invoice.marked_uncollectible)${same}`
  return `, though it accepted ${told.event} (invoice.marked_uncollectible): collection gives up when the invoice is written off, whatever its next_payment_attempt (the business may write it off while automatic retries remain); restrict on that event, not on a failure without a next attempt`
}

const standingRule = (options: DunningCheckOptions): Rule => ({
  name: 'dunning.standing',
  description: "a customer's account restricted at the end exactly when collection gave up on one of its invoices",
  check(history) {
    const out: Violation[] = []
    const last = new Map<string, EffectRecord>()
    for (const f of [...history.effects('dunning.restrict'), ...history.effects('dunning.reinstate')])
      if ((last.get(f.key)?.entry.seq ?? -1) < f.entry.seq) last.set(f.key, f)
    const accepted = new Set(history.accepted().map((a) => `${a.type} ${a.object}`))
    // A write-off the business ended by voiding the invoice (the app was told), not by payment.
    const forgiven = (e: TraceEntry) =>
      ((e.data.settled as string[]) ?? []).some((i) => accepted.has(`invoice.voided ${i}`) && !accepted.has(`invoice.paid ${i}`))
    for (const e of history.entries) {
      if (e.kind !== 'harness.dunning.standing') continue
      const customer = String(e.data.customer)
      const off = (e.data.uncollectible as string[]) ?? []
      // Judged once the app could know: it accepted every write-off still standing and the end of each one lifted.
      const known =
        off.every((i) => accepted.has(`invoice.marked_uncollectible ${i}`)) &&
        ((e.data.settled as string[]) ?? []).every(
          (i) => accepted.has(`invoice.paid ${i}`) || accepted.has(`invoice.voided ${i}`),
        )
      if (!known) continue
      const f = last.get(customer)
      const restricted = f?.kind === 'dunning.restrict'
      if (off.length > 0 && !restricted)
        out.push(
          violation(
            'dunning.standing',
            `${customer}: ${off.join(', ')} written off (uncollectible at the end, by the business or when collection gave up) but the app ${f === undefined ? 'never restricted the account' : 'had reinstated it'}${standingHint(history, off, f)}`,
            [e, ...(f ? [f.entry] : [])],
          ),
        )
      else if (off.length === 0 && restricted && !(forgiven(e) && options.standing?.liftOnVoid !== true))
        out.push(
          violation(
            'dunning.standing',
            `${customer}: still restricted at the end though none of its invoices is uncollectible (restricted ${describeEffect(f)})${standingHint(history, off, f)}`,
            [f.entry, e],
          ),
        )
    }
    return out
  },
})

/**
 * The dunning rule set's rules, over the `dunning.notice` and `dunning.restore` effects the
 * client's outbox records and the events it accepted. An invoice's attempt cycle starts with the
 * first `invoice.payment_failed` the client accepted while it had not yet accepted the invoice's
 * `invoice.paid`.
 *
 * - `dunning.notice_once`: exactly one notice per cycle (none for an invoice with no cycle), and
 *   never one once the client accepted the invoice's `invoice.paid` (a `neverAfter` rule).
 * - `dunning.restored_once`: exactly one restore per cycle whose `invoice.paid` the client
 *   accepted; none otherwise.
 * - `dunning.standing`: at the end, a customer's account is restricted (`dunning.restrict`, lifted
 *   by `dunning.reinstate`) exactly when one of its invoices is uncollectible (written off, not paid);
 *   once the business voided a written-off invoice the app may keep the restriction, unless
 *   `standing.liftOnVoid` says it promises to lift it.
 * - `ack.genuine_refused`: every genuine delivery answered 2xx.
 * - `ack.before_durable`: no notice or restore sent after the delivery was answered.
 *
 * @example
 * checkRuleTrace(sim.trace.entries(), dunningRules())
 */
export function dunningRules(options: DunningCheckOptions = {}): Rule[] {
  refuseArgument('dunningRules', 'options', options, 'options')
  return [
    noticeCount,
    neverAfter('dunning.notice', ['invoice.paid'], { name: 'dunning.notice_once' }),
    restoredOnce,
    standingRule(options),
    acknowledgesGenuine(),
    acknowledgesDurably(),
  ]
}

/**
 * Judges a dunning client over its run's trace by {@link dunningRules}.
 *
 * @example
 * checkDunningTrace(sim.trace.entries()) // []
 */
export function checkDunningTrace(entries: readonly TraceEntry[], options: DunningCheckOptions = {}): Violation[] {
  refuseNotEntries('checkDunningTrace', entries)
  return checkRuleTrace(entries, dunningRules(options))
}

/**
 * `dunning`: the checker form for scenarios and `checkerRegistry`.
 *
 * @example
 * dunningChecker.check({ entries, requests: [], deliveries: [] })
 */
export const dunningChecker = traceChecker(
  'dunning',
  checkDunningTrace,
  'one notice per failed attempt cycle, none once paid, restored once when paid',
)
