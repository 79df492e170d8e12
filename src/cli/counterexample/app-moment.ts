import type { TraceEntry } from '#kernel/index.js'
import type { Moment } from './walkthrough.js'

type Fields = Readonly<Record<string, unknown>>

/**
 * A compact one-line rendering of an entry's data, for the whole record behind a sentence.
 *
 * @example
 * detailOf({ event: 'evt_1', status: 500 }) // '{"event":"evt_1","status":500}'
 */
export function detailOf(data: Fields): string {
  const text = JSON.stringify(data)
  return text.length > 300 ? `${text.slice(0, 300)}…` : text
}

const text = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : JSON.stringify(v))

/** An object's state fields in words: `sub_1 (subscription, status canceled)`. */
function stateOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const { id, object, ...rest } = value as Fields
  const fields = Object.entries(rest)
    .filter(([, v]) => v !== undefined && (typeof v !== 'object' || v === null))
    .map(([k, v]) => `${k} ${text(v)}`)
  const head = [object === undefined ? '' : text(object), ...fields].filter(Boolean).join(', ')
  return `${id === undefined ? '' : text(id)}${head === '' ? '' : ` (${head})`}`.trim()
}

/** The event an effect was recorded while handling: its type and id, and the object as the event had it. */
function handledOf(event: unknown): string | undefined {
  if (typeof event !== 'object' || event === null) return undefined
  const e = event as Fields
  const object = stateOf(e.object)
  return `${text(e.type)} ${text(e.id)}${object === undefined ? '' : ` about ${object}`}`.trim()
}

/** Where two records of one object differ: `status: app active, provider canceled`. */
function differences(app: unknown, provider: unknown): string {
  if (typeof app !== 'object' || app === null || typeof provider !== 'object' || provider === null)
    return `app ${text(app)}, provider ${text(provider)}`
  const a = app as Fields
  const p = provider as Fields
  const keys = [...new Set([...Object.keys(a), ...Object.keys(p)])].filter((k) => text(a[k]) !== text(p[k]))
  return keys.length === 0
    ? 'the same'
    : keys.map((k) => `${k}: app ${text(a[k]) || '—'}, provider ${text(p[k]) || '—'}`).join('; ')
}

/** The scalar fields of a record in words, for the app's records the step-through has no sentence for. */
function fieldsOf(data: Fields): string {
  return Object.entries(data)
    .filter(([, v]) => v !== null && v !== undefined && typeof v !== 'object')
    .map(([k, v]) => `${k} ${text(v)}`)
    .join(', ')
}

/** Sentences for the app's records of the flow properties, by entry kind. */
const SENTENCES: Readonly<Record<string, (d: Fields) => string>> = {
  'harness.flow.ack': (d) => `acknowledged ${text(d.type)} ${text(d.event)} about ${stateOf(d.state) ?? text(d.object)}`,
  'harness.rule.refused': (d) =>
    `answered ${text(d.status)} to the genuine ${text(d.type)} ${text(d.event)}${Number(d.failedReads) > 0 ? ` (${text(d.failedReads)} API reads failed)` : ''}`,
  'harness.mirror.access': (d) => {
    const subs = Array.isArray(d.subscriptions) ? (d.subscriptions as Fields[]) : []
    const held = subs.map(
      (s) => `${text(s.id)} ${text(s.status)}${s.cancelAtPeriodEnd === true ? ' (cancelling at period end)' : ''}`,
    )
    return `${d.granted === true ? 'grants' : 'withholds'} access for ${text(d.customer)}; the provider's subscriptions: ${held.length === 0 ? 'none' : held.join(', ')}`
  },
  'harness.mirror.subscription': (d) => `mirror of ${text(d.id)} once settled: ${differences(d.mirror, d.provider)}`,
  'harness.dunning.standing': (d) =>
    `${text(d.customer)} stands with uncollectible ${text(d.uncollectible)} and settled ${text(d.settled)} at the provider`,
}

/**
 * The moment of one of the app's records in a flow property's trace (a redeploy, a forged
 * delivery and the app's answer, an action the app recorded, an acknowledgement, the mirror's
 * answers), in words; undefined for an entry that is not the app's.
 *
 * @example
 * appMomentOf(entry) // { kind: 'redeploy', reason: 'deploy', restart: 2, seq: 80, at: 0 }
 */
export function appMomentOf(e: TraceEntry): Moment | undefined {
  const base = { seq: e.seq, at: e.at }
  const d = e.data as Fields
  if (e.kind === 'harness.restart') return { ...base, kind: 'redeploy', reason: text(d.reason), restart: Number(d.restart) }
  if (e.kind === 'harness.forged')
    return {
      ...base,
      kind: 'forged',
      forgery: text(d.forgery),
      event: text(d.event),
      ...(typeof d.type === 'string' ? { type: d.type } : {}),
      object: text(d.object),
      outcome: text(d.outcome),
      status: typeof d.status === 'number' ? d.status : null,
    }
  if (e.kind === 'harness.rule.effect') {
    const handled = handledOf(d.event)
    const knew = stateOf(d.basis)
    const provider = stateOf(d.provider)
    return {
      ...base,
      kind: 'action',
      action: text(d.kind),
      key: text(d.key),
      ...(handled === undefined ? {} : { handled }),
      ...(knew === undefined ? {} : { knew }),
      ...(provider === undefined ? {} : { provider }),
      detail: detailOf(d),
    }
  }
  if (e.kind === 'harness.forging' || !e.kind.startsWith('harness.')) return undefined
  const what = e.kind.slice('harness.'.length)
  const says = SENTENCES[e.kind]?.(d) ?? fieldsOf(d)
  return { ...base, kind: 'note', lane: 'app', what, detail: detailOf(d), says }
}
