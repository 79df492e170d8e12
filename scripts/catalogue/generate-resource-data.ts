import { readFileSync, writeFileSync } from 'node:fs'
import { objectValues, operations, typeShape } from '../../src/catalogue/index.js'
import type { Shape } from '../../src/catalogue/types.js'

/**
 * Writes `src/catalogue/generated/resource-data.json`: what the engine needs to serve a resource
 * nobody declared by hand, read off the provider's data.
 *
 * - `idPrefixes`: the id prefix of each object value (`issuing.card` -> `ic`), from the ids of the
 *   provider's published fixtures (`stripe/openapi`, `openapi/fixtures3.json`, passed by path: the
 *   file itself is not part of this project). Placeholders (`obj_123`) and non-ids (`US`) give none.
 * - `eventPrefixes`: the prefix of an object's snapshot events where it is not the object value
 *   (`issuing.card` -> `issuing_card`, as in `issuing_card.created`), from the catalogue's events.
 * - `actions`: for each action operation (`POST …/:id/<verb>`), the status it sets, where the
 *   object's `status` enum has the verb's past participle (`cancel` -> `canceled`), and the event it
 *   emits where the catalogue has `<event prefix>.<status>`.
 *
 * @example
 * // npx tsx scripts/catalogue/generate-resource-data.ts path/to/fixtures3.json
 */
const file = process.argv[2]
if (file === undefined) {
  console.error('usage: generate-resource-data <fixtures3.json> [out.json]')
  process.exit(2)
}
const out = process.argv[3] ?? new URL('../../src/catalogue/generated/resource-data.json', import.meta.url)
const fixtures = JSON.parse(readFileSync(file, 'utf8')) as { resources: Record<string, { object?: unknown; id?: unknown }> }

/** The prefix of a fixture id, or undefined when the id is a placeholder or no id. */
function prefixOf(id: string): string | undefined {
  const m = /^([a-z]+(?:_[a-z]+)?)_([A-Za-z0-9]{3,})$/.exec(id)
  if (m === null) return undefined
  const [, prefix, random] = m as unknown as [string, string, string]
  if (prefix === 'obj' || !/\d/.test(random)) return undefined
  // The mode between prefix and random part (`ent_test_61QG…`) is not the prefix.
  return prefix.replace(/_test$/, '')
}

const idPrefixes: Record<string, string> = {}
for (const [name, fixture] of Object.entries(fixtures.resources)) {
  // `deleted_*` fixtures repeat the live object's id.
  if (name.startsWith('deleted_') || typeof fixture.object !== 'string' || typeof fixture.id !== 'string') continue
  const prefix = prefixOf(fixture.id)
  if (prefix !== undefined) idPrefixes[fixture.object] ??= prefix
}

function resolve(shape: Shape): Shape {
  let s = shape
  for (let i = 0; s.t === 'ref' && i < 16; i++) s = typeShape(s.name) ?? { t: 'any' }
  return s
}

const events = new Set<string>()
const event = typeShape('Event')
for (const member of event?.t === 'union' ? event.of : []) {
  const s = resolve(member)
  const type = s.t === 'object' ? s.fields.type?.shape : undefined
  if (type?.t === 'literal' && typeof type.value === 'string') events.add(type.value)
}

const eventPrefixes: Record<string, string> = {}
for (const object of Object.keys(objectValues())) {
  const underscored = object.replace(/\./g, '_')
  const has = (p: string) => ['created', 'updated', 'deleted'].some((v) => events.has(`${p}.${v}`))
  if (!has(object) && has(underscored)) eventPrefixes[object] = underscored
}

/** Past participles a verb's status may take (`cancel` -> `canceled`). */
const PARTICIPLES: Readonly<Record<string, readonly string[]>> = {
  accept: ['accepted'],
  activate: ['active', 'activated'],
  archive: ['archived', 'inactive'],
  cancel: ['canceled', 'cancelled'],
  close: ['closed'],
  deactivate: ['inactive', 'deactivated'],
  decline: ['declined'],
  disable: ['disabled'],
  disconnect: ['disconnected'],
  enable: ['enabled'],
  expire: ['expired'],
  fail: ['failed'],
  post: ['posted'],
  redact: ['redacted'],
  reject: ['rejected'],
  release: ['released'],
  return: ['returned'],
  reverse: ['reversed'],
  submit: ['submitted'],
  succeed: ['succeeded'],
  unarchive: ['active'],
  void: ['void', 'voided'],
}

const objects = objectValues()
const objectOf = new Map(Object.entries(objects).map(([o, t]) => [t, o]))
const actions: Record<string, { status?: string; event?: string }> = {}
for (const op of operations()) {
  const segs = op.path.split('/')
  if (op.method !== 'POST' || !(segs.at(-2) ?? '').startsWith(':') || op.returns.type === undefined) continue
  const verb = segs.at(-1) ?? ''
  const type = op.returns.type
  const object = objectOf.get(type)
  const shape = resolve({ t: 'ref', name: type })
  const status = shape.t === 'object' ? shape.fields.status?.shape : undefined
  const statuses = status === undefined ? [] : (() => {
    const s = resolve(status)
    return s.t === 'string' && s.enum !== undefined ? s.enum : []
  })()
  const to = (PARTICIPLES[verb] ?? []).find((p) => statuses.includes(p))
  if (to === undefined || object === undefined) continue
  const prefix = eventPrefixes[object] ?? object
  actions[op.name] = { status: to, ...(events.has(`${prefix}.${to}`) ? { event: `${prefix}.${to}` } : {}) }
}

const sorted = <T>(o: Record<string, T>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)))
const data = {
  source: 'stripe/openapi openapi/fixtures3.json; the operation catalogue',
  idPrefixes: sorted(idPrefixes),
  eventPrefixes: sorted(eventPrefixes),
  actions: sorted(actions),
}
writeFileSync(out, `${JSON.stringify(data, null, 2)}\n`)
console.log(`${Object.keys(idPrefixes).length} id prefixes, ${Object.keys(eventPrefixes).length} event prefixes, ${Object.keys(actions).length} actions`)
