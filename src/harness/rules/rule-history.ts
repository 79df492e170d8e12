import type { TraceEntry } from '#kernel/index.js'
import { HarnessInputError } from '../harness-input-error.js'
import { refuseArgument } from '../refuse-argument.js'
import type { HandledEvent } from './causal-recorder.js'
import type { EffectDetail } from './effect-recorder.js'
import type { ObjectState } from './object-state.js'

/** One effect the app recorded, with what it was handling and what it could know then. */
export interface EffectRecord {
  readonly kind: string
  readonly key: string
  readonly detail: EffectDetail | null
  /** The delivered event the app was handling (null: outside any delivery, e.g. a page). */
  readonly event: HandledEvent | null
  /** The app's last API read of the key's object in that context. */
  readonly read: ObjectState | null
  /** What the app could know of the object: its read, else the handled event's object when it is that one. */
  readonly basis: ObjectState | null
  /** The provider's true state of the object at that instant. */
  readonly provider: ObjectState | null
  /** The status the app had already answered the delivery with when it recorded this (absent: before). */
  readonly answeredBefore?: number
  readonly entry: TraceEntry
}

/** One event the app accepted (answered 2xx), with the state of the object in it. */
export interface AcceptedEvent {
  readonly event: string
  readonly type: string
  readonly object: string | null
  readonly state: ObjectState | null
  readonly entry: TraceEntry
}

/**
 * What rules read of a run: its trace, the app's effects and the events it accepted, in trace
 * order, and the provider's state of each object at the end (`harness.rule.final`).
 *
 * @example
 * const history = ruleHistory(sim.trace.entries())
 * history.effects('email.welcome').length
 */
export interface RuleHistory {
  readonly entries: readonly TraceEntry[]
  /** The app's effects (of one kind when named), in the order recorded. */
  effects(kind?: string): readonly EffectRecord[]
  /** The events the app accepted, in order. */
  accepted(): readonly AcceptedEvent[]
  /** Each traced object's state at the end of the run, by id. */
  finals(): ReadonlyMap<string, { readonly state: ObjectState; readonly entry: TraceEntry }>
}

/**
 * Reads a run's trace as rules see it.
 *
 * @example
 * ruleHistory(entries).accepted().filter((a) => a.type === 'invoice.paid')
 */
export function ruleHistory(entries: readonly TraceEntry[]): RuleHistory {
  refuseArgument('ruleHistory', 'entries', entries, 'array')
  const effects: EffectRecord[] = []
  const accepted: AcceptedEvent[] = []
  const finals = new Map<string, { state: ObjectState; entry: TraceEntry }>()
  for (const e of entries) {
    if (e.kind === 'harness.rule.effect') {
      const d = e.data as unknown as Omit<EffectRecord, 'entry'>
      effects.push({ ...d, entry: e })
    } else if (e.kind === 'harness.flow.ack') {
      const object = e.data.object
      accepted.push({
        event: e.data.event,
        type: String(e.data.type),
        object: typeof object === 'string' ? object : null,
        state: (e.data.state as ObjectState | undefined) ?? null,
        entry: e,
      })
    } else if (e.kind === 'harness.rule.final') finals.set(e.data.id, { state: e.data.state as ObjectState, entry: e })
  }
  const byKind = new Map<string, EffectRecord[]>()
  return {
    entries,
    effects(kind) {
      if (kind === undefined) return effects
      let list = byKind.get(kind)
      if (list === undefined) {
        list = effects.filter((f) => f.kind === kind)
        byKind.set(kind, list)
      }
      return list
    },
    accepted: () => accepted,
    finals: () => finals,
  }
}

/**
 * How an effect's causal context reads in a verdict: the event handled and the object's state in
 * it, the app's read, and the provider's state then.
 *
 * @example
 * describeEffect(effect) // 'while handling evt_2 (checkout.session.completed, showing status complete, payment_status unpaid); no API read; provider: ...'
 */
export function describeEffect(f: EffectRecord): string {
  refuseArgument('describeEffect', 'effect', f, 'object')
  for (const part of ['event', 'read', 'provider'] as const)
    if (typeof f[part] !== 'object')
      throw new HarnessInputError(
        `describeEffect: effect must be an effect record { event, read, provider } (as ruleHistory gives it); its '${part}' is ${f[part] === undefined ? 'missing' : typeof f[part]}`,
      )
  const show = (s: ObjectState | null) => {
    if (s === null) return 'nothing'
    const fields = Object.entries(s).filter(([k]) => k !== 'id' && k !== 'object')
    // An object without state fields (a customer) reads as what it is, not as an empty phrase.
    if (fields.length === 0) return `${String(s.object ?? 'an object')} ${s.id} (no status)`
    return fields.map(([k, v]) => `${k} ${String(v)}`).join(', ')
  }
  const handling =
    f.event === null
      ? 'outside any delivery'
      : `while handling ${f.event.id} (${f.event.type}${f.event.object === null ? '' : `, its ${f.event.object.id} showing ${show(f.event.object)}`})`
  const read = f.read === null ? 'no API read of it' : `it read ${show(f.read)}`
  return `${handling}; ${read}; provider then: ${show(f.provider)}`
}
