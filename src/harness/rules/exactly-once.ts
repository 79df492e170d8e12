import type { TraceEntry } from '#kernel/index.js'
import { type Violation, violation } from '../checkers/violation.js'
import { absentFieldsHint, type ObjectState } from './object-state.js'
import type { Rule } from './rule.js'
import { type AcceptedEvent, describeEffect, type EffectRecord, type RuleHistory } from './rule-history.js'
import { ruleInput } from './rule-input.js'
import { twinHint } from './twin-hint.js'

/** The end state of the objects an {@link exactlyOnce} rule judges, by key. */
export type FinalStates = ReadonlyMap<string, { readonly state: ObjectState; readonly entry: TraceEntry }>

/** Settings of {@link exactlyOnce}. */
export interface ExactlyOnceOptions {
  /** Checker name of its violations (default `<kind>.exactly_once`). */
  readonly name?: string
  /** The end state that obliges the effect (a session paid). */
  readonly when: (final: ObjectState) => boolean
  /** Which objects it judges: those whose `object` is this (default: every object traced at the end). */
  readonly object?: string
  /** The effect kind that takes one back (a fulfilment reversed). */
  readonly reversal?: string
  /** Checker name of an effect left standing on an object that does not oblige it (default `name`). */
  readonly leftoverName?: (final: ObjectState | undefined) => string
  /** Whether the app could know the object obliges it (default: it accepted an event showing `when`). */
  readonly known?: (key: string, history: RuleHistory) => boolean
  /** The end states (default `history.finals()`, the `harness.rule.final` entries). */
  readonly finals?: (history: RuleHistory) => FinalStates
}

function tally(history: RuleHistory, kind: string, reversal: string | undefined) {
  const by = new Map<string, { done: EffectRecord[]; undone: EffectRecord[] }>()
  for (const f of history.effects()) {
    if (f.kind !== kind && f.kind !== reversal) continue
    let t = by.get(f.key)
    if (t === undefined) {
      t = { done: [], undone: [] }
      by.set(f.key, t)
    }
    ;(f.kind === kind ? t.done : t.undone).push(f)
  }
  return by
}

/** The first event the app accepted that showed the object in a state `when` accepts. */
const toldBy = (key: string, history: RuleHistory, when: (s: ObjectState) => boolean) =>
  history.accepted().find((a) => a.object === key && a.state !== null && when(a.state))

/** What the end state owed, when nothing was done; what the app was doing when it took one back. */
function owedHint(
  key: string,
  state: ObjectState,
  t: { done: readonly EffectRecord[]; undone: readonly EffectRecord[] },
  told: AcceptedEvent | undefined,
): string {
  const fields = Object.entries(state).filter(([k]) => k !== 'id' && k !== 'object')
  const by = told === undefined ? '' : `, and the app accepted ${told.event} (${told.type}), which showed it so`
  const owed =
    t.done.length === 0 ? `; its end state (${fields.map(([k, v]) => `${k} ${String(v)}`).join(', ')}) obliges it${by}` : ''
  const undone = t.undone[0]
  if (undone === undefined) return owed
  const about = undone.event?.object?.id
  const other =
    about === undefined || about === key
      ? ''
      : ` (an event about another object, ${about}: take back only what the event is about)`
  return `${owed}; reversed ${describeEffect(undone)}${other}`
}

/**
 * "Exactly once per X, reversed when Y": every object whose end state `when` accepts had `kind`
 * done exactly once and never reversed (at most once when nothing told the app: every event
 * showing it failed delivery); every other object is left with none standing (done as often as
 * reversed), which `reversal` makes "reversed when its payment fails".
 *
 * @example
 * exactlyOnce('order.fulfil', { when: (s) => s.payment_status === 'paid', reversal: 'order.reverse', object: 'checkout.session' })
 */
export function exactlyOnce(kind: string, options: ExactlyOnceOptions): Rule {
  ruleInput('exactlyOnce', { kind, fns: { when: (options as Partial<ExactlyOnceOptions> | undefined)?.when } }, options)
  const name = options.name ?? `${kind}.exactly_once`
  const knownBy =
    options.known ??
    ((key: string, h: RuleHistory) => h.accepted().some((a) => a.object === key && a.state !== null && options.when(a.state)))
  return {
    name,
    description: `${kind} exactly once per object that ends obliging it${options.reversal === undefined ? '' : `, taken back by ${options.reversal} otherwise`}`,
    check(history) {
      const finals = options.finals?.(history) ?? history.finals()
      const counts = tally(history, kind, options.reversal)
      const keys = new Set([
        ...counts.keys(),
        ...[...finals].filter(([, f]) => options.object === undefined || f.state.object === options.object).map(([k]) => k),
      ])
      const out: Violation[] = []
      for (const key of keys) {
        const t = counts.get(key) ?? { done: [], undone: [] }
        const final = finals.get(key)
        const witnesses = [
          ...(final === undefined ? [] : [final.entry]),
          ...t.done.map((f) => f.entry),
          ...t.undone.map((f) => f.entry),
        ]
        if (final !== undefined && options.when(final.state)) {
          const known = knownBy(key, history)
          const expected = known || t.done.length > 0 ? 1 : 0
          if (t.done.length === expected && t.undone.length === 0) continue
          out.push(
            violation(
              name,
              `${key}: ${kind} ${t.done.length} time(s) and reversed ${t.undone.length} time(s) (expected ${known ? 'once' : 'at most once'}, never reversed)${owedHint(key, final.state, t, toldBy(key, history, options.when))}${twinHint(history.entries, t.done)}`,
              witnesses,
            ),
          )
        } else if (t.done.length !== t.undone.length) {
          const what = final === undefined ? 'no object of the run has this id' : 'its end state does not oblige it'
          out.push(
            violation(
              options.leftoverName?.(final?.state) ?? name,
              `${key}: left with ${kind} standing (${t.done.length} done, ${t.undone.length} reversed) though ${what}${final === undefined ? '' : absentFieldsHint(options.when, final.state)}`,
              witnesses,
            ),
          )
        }
      }
      return out
    },
  }
}
