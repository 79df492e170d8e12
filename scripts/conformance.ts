// Writes docs/conformance.md: per resource of the official client, which operations the simulator
// serves and how (a hand-written behaviour or the resource engine), how many parameters each
// declares (all checked against the client's declaration), which of them the tests call, which
// event types the client declares for the resource and which the tests name, and which API
// versions the resource is walked through. Run with `npm run conformance`; a test regenerates the
// text in memory and compares it with the committed file.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { catalogue, type Operation, type Shape } from '../src/catalogue/index.js'
import { NOT_SERVED } from '../src/catalogue/not-served.js'
import { CURRENT_VERSION, declaredAt, servedVersions } from '../src/catalogue/versions.js'
import { declarations } from '../src/domain/resource-declarations.js'
import type { VersionChange } from '../src/domain/versions/change.js'
import { CHANGES } from '../src/domain/versions/changes/index.js'

const repo = resolve(dirname(new URL(import.meta.url).pathname), '..')

/** Every `.ts` file under the test folder, sorted, as one text per file. */
function testTexts(root: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir)
      .sort()
      .flatMap((name) => {
        const path = join(dir, name)
        if (name === 'node_modules' || name.startsWith('.')) return []
        if (statSync(path).isDirectory()) return walk(path)
        return name.endsWith('.ts') ? [path] : []
      })
  return walk(join(root, 'test')).map((file) => readFileSync(file, 'utf8'))
}

/** Whether a test calls the operation through the client (`stripe.checkout.sessions.create(`). */
function calledIn(texts: readonly string[], name: string): boolean {
  const call = new RegExp(`\\.${name.replace(/\./g, '\\.')}\\(`)
  return texts.some((t) => call.test(t))
}

/** Whether a test names the event type as a string (`'charge.refunded'`). */
function namedIn(texts: readonly string[], type: string): boolean {
  return texts.some((t) => t.includes(`'${type}'`) || t.includes(`"${type}"`) || t.includes(`\`${type}\``))
}

/** The client's snapshot event types by the type of their `data.object` (`charge.refunded` under `Charge`). */
function eventsByType(types: Readonly<Record<string, Shape>>): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const [name, shape] of Object.entries(types)) {
    if (!name.endsWith('Event') || shape.t !== 'object') continue
    const object = shape.fields.object?.shape
    const type = shape.fields.type?.shape
    const data = shape.fields.data?.shape
    if (object?.t !== 'literal' || object.value !== 'event' || type?.t !== 'literal' || data?.t !== 'ref') continue
    const dataShape = types[data.name]
    const held = dataShape?.t === 'object' ? dataShape.fields.object?.shape : undefined
    if (held?.t !== 'ref') continue
    out.set(held.name, [...(out.get(held.name) ?? []), String(type.value)].sort())
  }
  return out
}

/** How many top-level parameters an operation declares. */
function paramCount(types: Readonly<Record<string, Shape>>, op: Operation): number {
  const shape = op.params === undefined ? undefined : types[op.params]
  return shape?.t === 'object' ? Object.keys(shape.fields).length : 0
}

/** The hand-written version changes that touch a resource: its object (walked back) or its operations (walked forward). */
function changesOf(object: string | undefined, ops: readonly Operation[]): VersionChange[] {
  const names = new Set(ops.map((op) => op.name))
  return CHANGES.filter(
    (c) =>
      (object !== undefined && (c.back?.[object] !== undefined || c.withheld?.[object] !== undefined)) ||
      Object.keys(c.forward ?? {}).some((n) => names.has(n)),
  )
}

/**
 * Of the served versions other than the current one: how many answer the type with the current
 * fields, how many walk it (the generated facts differ), and how many had no such type yet.
 */
function walkedVersions(type: string): { same: number; walked: number; absent: number } {
  const now = declaredAt(CURRENT_VERSION, type, 'objects')
  const out = { same: 1, walked: 0, absent: 0 }
  if (now === undefined) return out
  const key = (m: ReadonlyMap<string, string>) => [...m].sort().join(',')
  for (const { version } of servedVersions()) {
    if (version === CURRENT_VERSION) continue
    const then = declaredAt(version, type, 'objects')
    if (then === undefined) out.absent++
    else if (key(then) === key(now)) out.same++
    else out.walked++
  }
  return out
}

const yes = (b: boolean) => (b ? 'yes' : '—')

/**
 * The conformance table as markdown, made from the catalogue, the resource declarations, the
 * version changes and the test files of `root`.
 */
export function conformanceText(root = repo): string {
  const cat = catalogue()
  const texts = testTexts(root)
  const behaviours = new Set(declarations.flatMap((d) => Object.keys(d.behaviours ?? {})))
  const objectOf = new Map(Object.entries(cat.objects).map(([value, type]) => [type, value]))
  const events = eventsByType(cat.types)
  const byResource = new Map<string, Operation[]>()
  for (const op of cat.operations) byResource.set(op.resource, [...(byResource.get(op.resource) ?? []), op])
  const resources = [...byResource.keys()].sort()
  const versions = servedVersions().length

  const summary: string[] = []
  const details: string[] = []
  const totals = { ops: 0, served: 0, behaviours: 0, tested: 0, events: 0, eventsTested: 0 }
  for (const resource of resources) {
    const ops = [...byResource.get(resource)!].sort((a, b) => a.name.localeCompare(b.name))
    const object = objectOf.get(resource)
    const served = ops.filter((op) => !(op.name in NOT_SERVED))
    const withBehaviour = ops.filter((op) => behaviours.has(op.name))
    const tested = ops.filter((op) => calledIn(texts, op.name))
    const declared = events.get(resource) ?? []
    const eventsTested = declared.filter((t) => namedIn(texts, t))
    const changes = changesOf(object, ops)
    const walk = walkedVersions(resource)
    totals.ops += ops.length
    totals.served += served.length
    totals.behaviours += withBehaviour.length
    totals.tested += tested.length
    totals.events += declared.length
    totals.eventsTested += eventsTested.length
    const absent = walk.absent > 0 ? `, ${walk.absent} before it` : ''
    const hand = changes.length > 0 ? `, ${changes.length} by hand` : ''
    const versionCell = object === undefined ? '—' : `${walk.same} same, ${walk.walked} walked${absent}${hand}`
    summary.push(
      `| [${resource}](#${anchor(resource)}) | ${ops.length} | ${served.length} | ${withBehaviour.length} | ${tested.length} | ${declared.length === 0 ? '—' : `${eventsTested.length} of ${declared.length}`} | ${versionCell} |`,
    )
    details.push(`### ${resource}`, '')
    if (object !== undefined) details.push(`Object \`${object}\`.`, '')
    details.push('| Operation | Request | Params | Served by | Tested |', '| --- | --- | --- | --- | --- |')
    for (const op of ops) {
      const by = op.name in NOT_SERVED ? 'answers 501' : behaviours.has(op.name) ? 'behaviour' : 'engine'
      details.push(`| \`${op.name}\` | \`${op.method} ${op.path}\` | ${paramCount(cat.types, op)} | ${by} | ${yes(calledIn(texts, op.name))} |`)
    }
    details.push('')
    if (declared.length > 0) {
      const listed = declared.map((t) => `\`${t}\`${eventsTested.includes(t) ? ' (tested)' : ''}`)
      details.push(`Events: ${listed.join(', ')}.`, '')
    }
    if (object !== undefined) {
      const hand = changes.map((c) => `${c.version} (${c.description})`)
      const before = walk.absent > 0 ? `; ${walk.absent} are older than the resource` : ''
      details.push(
        `Versions: ${walk.same} served versions answer the current fields; ${walk.walked} are walked from their client's declarations${before}${hand.length > 0 ? `; by hand: ${hand.join('; ')}` : ''}.`,
        '',
      )
    }
  }

  return [
    '# Conformance',
    '',
    `What the simulator covers of the provider's API, per resource of the official client \`stripe@${cat.clientVersion}\``,
    `(API version \`${cat.apiVersion}\`). This page is generated from the operation catalogue, the`,
    "simulator's resource declarations and version changes, and its own test suite, and checked in CI",
    'against them, so it says what is true of this release.',
    '',
    '- **Served**: answered by the simulator (the others answer 501 `not_implemented`, naming the operation).',
    "- **Behaviours**: operations with hand-written behaviour (state machines, money movement, events);",
    "  the others are served by the resource engine from the client's declarations (create, retrieve,",
    '  update, delete, list, search, expand).',
    "- **Params**: the top-level parameters the client declares; every request's parameters are checked",
    '  against the declaration (types, enums, required ones, unknown names refused).',
    '- **Tested**: called through the official client in the simulator\'s test suite.',
    "- **Events**: the client's event types whose object is the resource, and how many the tests name.",
    `- **Versions**: of the ${versions} served API versions, how many answer the resource's current`,
    "  fields, how many walk them back to what that version's client declared, how many are older than",
    '  the resource, and how many hand-written version changes (moves, computed fields, withheld fields,',
    '  changed defaults) touch it.',
    '',
    '## Summary',
    '',
    '| Resource | Operations | Served | Behaviours | Tested | Events tested | Versions |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...summary,
    `| **All** | ${totals.ops} | ${totals.served} | ${totals.behaviours} | ${totals.tested} | ${totals.eventsTested} of ${totals.events} | ${versions} served |`,
    '',
    '## Version changes written by hand',
    '',
    "Plain fields added or removed are walked from each version's client declarations; these changes",
    'move or compute a value, withhold a field, or change what an omitted parameter means.',
    '',
    '| Version | Change | Kind |',
    '| --- | --- | --- |',
    ...CHANGES.map((c) => `| \`${c.version}\` | ${c.description} | ${kindOf(c)} |`),
    '',
    '## Resources',
    '',
    ...details,
  ].join('\n')
}

function kindOf(c: VersionChange): string {
  if (c.meaning === true) return 'meaning (a default)'
  if (c.withheld !== undefined) return 'shape, withheld field'
  return c.back === undefined ? 'parameters' : 'shape'
}

/** The anchor a markdown renderer gives a `### Name` heading. */
function anchor(heading: string): string {
  return heading.toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-')
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  writeFileSync(join(repo, 'docs', 'conformance.md'), conformanceText())
  process.stderr.write('wrote docs/conformance.md\n')
}
