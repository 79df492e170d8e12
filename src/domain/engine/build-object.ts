import type { Field, Shape } from '#catalogue/types.js'
import { type CatalogueView, isListShape, resolve } from './catalogue-view.js'

/** What a new object's defaults are made from. */
export interface BuildContext {
  readonly id: string
  /** The `object` value, e.g. `customer`. */
  readonly object: string
  readonly livemode: boolean
  /** Unix seconds (the virtual clock). */
  readonly created: number
  /** The object's own url (`/v1/customers/cus_1`): sub-lists hang below it. */
  readonly url: string
}

/** Nested objects deeper than this are left `null` (or `{}`): recursive types must end. */
const MAX_DEPTH = 6

/**
 * A new object of a catalogue object type: every non-optional field, with `id`, `object`,
 * `livemode`, `created` and `metadata` from the context, `null` for nullable fields, the
 * declaration's `defaults` where given, and an empty value of the declared type otherwise (nested
 * objects built the same way, sub-lists as empty list envelopes).
 *
 * @example
 * buildObject(view, 'Customer', { id: 'cus_1', object: 'customer', livemode: false, created: 1, url: '/v1/customers/cus_1' })
 * // { id: 'cus_1', object: 'customer', address: null, balance: 0, ..., metadata: {}, ... }
 */
export function buildObject(
  view: CatalogueView,
  type: string,
  ctx: BuildContext,
  defaults: Readonly<Record<string, unknown>> = {},
): Record<string, unknown> {
  const plan = planOf(view, type)
  if (plan === undefined) return { id: ctx.id, object: ctx.object }
  const layout = layoutOf(plan, defaults)
  // A fast object with every member (see Layout) that the writes below only fill in.
  const out = layout.make()
  for (const step of layout.steps) {
    const name = step.name
    if (step.special !== undefined) out[name] = special(step.special, ctx)
    else if (step.list) out[name] = emptyList(step.list, `${ctx.url}/${name}`)
    else out[name] = copy(step.value)
  }
  for (const name in defaults) out[name] = defaults[name]
  return out
}

/**
 * The members of the objects built from one plan with defaults of the same names: the plan's
 * fields that are given a default or are not optional, in plan order, then the other defaults.
 * Members added one by one under computed names turn an object of more than about sixteen members
 * into a hash table on V8 ("dictionary mode": twice the memory, JSON.stringify twice as slow); an
 * object made with every member at once (`make`, see `maker`) stays fast.
 */
interface Layout {
  /** The defaults' names, in order, that this layout is for. */
  readonly names: readonly string[]
  /** A new object with every member, all null. */
  readonly make: () => Record<string, unknown>
  /** The plan's steps that make a value (not defaulted, not optional). */
  readonly steps: readonly Step[]
}

const layouts = new WeakMap<readonly Step[], Layout[]>()

function layoutOf(plan: readonly Step[], defaults: Readonly<Record<string, unknown>>): Layout {
  let known = layouts.get(plan)
  if (known === undefined) {
    known = []
    layouts.set(plan, known)
  }
  // Compared name by name: no string or array made per build.
  search: for (const layout of known) {
    let i = 0
    for (const name in defaults) if (layout.names[i++] !== name) continue search
    if (i === layout.names.length) return layout
  }
  const names = Object.keys(defaults)
  const members: string[] = []
  const steps: Step[] = []
  for (const step of plan) {
    if (step.name in defaults) members.push(step.name)
    else if (!step.optional) {
      members.push(step.name)
      steps.push(step)
    }
  }
  for (const name of names) if (!members.includes(name)) members.push(name)
  const layout: Layout = { names, make: maker(members), steps }
  known.push(layout)
  return layout
}

/**
 * A function returning a new object with these members in order, all null. Made from an object
 * literal, so V8 keeps one allocation site per layout: objects that outlive the young generation
 * (stored ones all do) are then allocated in the old one at once, instead of being copied there by
 * every scavenge, and each costs a copy of a boilerplate instead of a spread. The names are
 * written as JSON strings; a `__proto__` member, which a literal would take as the prototype,
 * goes through a copy of a JSON.parse template instead.
 */
function maker(members: readonly string[]): () => Record<string, unknown> {
  const literal = `{${members.map((m) => `${JSON.stringify(m)}:null`).join(',')}}`
  if (members.includes('__proto__')) {
    const template = JSON.parse(literal) as Record<string, null>
    return () => ({ ...template })
  }
  return new Function(`return ${literal}`) as () => Record<string, unknown>
}

/** One field of a type's build plan: how its default is made, worked out once per type. */
interface Step {
  readonly name: string
  readonly optional: boolean
  readonly special?: 'id' | 'object' | 'livemode' | 'created' | 'metadata'
  readonly list?: Readonly<Record<string, Field>>
  readonly value?: unknown
}

const plans = new WeakMap<CatalogueView, Map<string, readonly Step[] | undefined>>()

const PLAN_CTX: BuildContext = { id: '', object: '', livemode: false, created: 0, url: '' }

/** The build plan of a type, cached per catalogue: builds then cost one pass and small copies. */
function planOf(view: CatalogueView, type: string): readonly Step[] | undefined {
  let byType = plans.get(view)
  if (byType === undefined) {
    byType = new Map()
    plans.set(view, byType)
  }
  if (byType.has(type)) return byType.get(type)
  const shape = resolve(view, { t: 'ref', name: type })
  const plan =
    shape.t !== 'object'
      ? undefined
      : Object.entries(shape.fields).map(([name, field]): Step => {
          const optional = field.optional === true
          const sp = specialOf(name, field)
          if (sp !== undefined) return { name, optional, special: sp }
          const s = resolve(view, field.shape)
          if (!field.nullable && s.t === 'object' && isListShape(view, s)) return { name, optional, list: s.fields }
          return { name, optional, value: defaultOf(view, field, name, PLAN_CTX, 1) }
        })
  byType.set(type, plan)
  return plan
}

function specialOf(name: string, field: Field): Step['special'] {
  if (name === 'id' || name === 'object' || name === 'livemode' || name === 'metadata') return name
  if (name === 'created' && field.shape.t === 'integer') return 'created'
  return undefined
}

function special(kind: NonNullable<Step['special']>, ctx: BuildContext): unknown {
  switch (kind) {
    case 'id':
      return ctx.id
    case 'object':
      return ctx.object
    case 'livemode':
      return ctx.livemode
    case 'created':
      return ctx.created
    default:
      return {}
  }
}

/** A fresh copy of plain JSON (plan values are shared). */
function copy(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v
  if (Array.isArray(v)) return v.map(copy)
  const out: Record<string, unknown> = {}
  for (const k in v as Record<string, unknown>) out[k] = copy((v as Record<string, unknown>)[k])
  return out
}

/**
 * The default of one field: `null` when nullable, else the empty value of its shape.
 *
 * @example
 * defaultOf(view, { shape: { t: 'string', enum: ['none', 'exempt'] } }, 'tax_exempt', ctx, 1) // 'none'
 */
export function defaultOf(view: CatalogueView, field: Field, name: string, ctx: BuildContext, depth: number): unknown {
  if (field.nullable) return null
  if (name === 'livemode') return ctx.livemode
  if (name === 'metadata') return {}
  return emptyOf(view, field.shape, name, ctx, depth)
}

/** The empty value of a shape (the value a new object carries where nothing else is known). */
export function emptyOf(view: CatalogueView, shape: Shape, name: string, ctx: BuildContext, depth: number): unknown {
  const s = resolve(view, shape)
  switch (s.t) {
    case 'string':
      return s.enum?.[0] ?? ''
    case 'integer':
    case 'number':
      return 0
    case 'boolean':
      return false
    case 'decimal':
      return '0'
    case 'literal':
      return s.value
    case 'array':
      return []
    case 'map':
      return {}
    case 'object': {
      if (isListShape(view, s)) return emptyList(s.fields, `${ctx.url}/${name}`)
      if (depth >= MAX_DEPTH) return {}
      const out: Record<string, unknown> = {}
      for (const [k, f] of Object.entries(s.fields)) {
        if (!f.optional) out[k] = defaultOf(view, f, k, ctx, depth + 1)
      }
      return out
    }
    case 'union': {
      const member = s.of.find((m) => !(m.t === 'literal' && m.value === null))
      return member === undefined ? null : emptyOf(view, member, name, ctx, depth)
    }
    case 'expandable':
      return ''
    default:
      return null
  }
}

/** An empty sub-list with the members its list type declares. */
function emptyList(fields: Readonly<Record<string, Field>>, url: string): Record<string, unknown> {
  const out: Record<string, unknown> = { object: 'list', data: [], has_more: false }
  if ('total_count' in fields) out.total_count = 0
  out.url = url
  return out
}
