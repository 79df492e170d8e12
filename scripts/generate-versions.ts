// Generates the version facts (src/catalogue/generated/versions.json and version-deltas.json) from
// the official client's own history. Run with `npm run versions` (or
// `npx tsx scripts/generate-versions.ts [outDir] [--from <dir to keep the unpacked releases in>]`).
//
// 1. Which versions, and which release declares each: the pinned client's CHANGELOG.md says, per
//    release, "This release changes the pinned API version to `V`". The last release before the next
//    change is the last one pinning V, so its declarations are V's fullest description.
// 2. Each of those releases is fetched with `npm pack` into a temporary directory (never committed)
//    and its `.d.ts` files are read through the TypeScript compiler API (a syntax walk: the
//    interfaces of the `Stripe` namespace, or of `cjs/resources/` in the newer layout).
// 3. Per version, the delta against the next newer version: for every object type (an interface
//    with an `object` literal field) the fields it has there and not at the next version (`+`) and
//    the fields the next version has and it has not (`-`); the same for every `...Params` interface.
//    A field is written `name` when declared required and `name?` when optional, so a change of
//    optionality is one `-` and one `+` of the same name; a field holding a sub-type is written
//    `name:Type` (a union of sub-types `name:A|B`, an inline object literal `name:Owner#name`).
//
// Output is deterministic (sorted keys and lists). `versions.json` records each release's tarball
// integrity, so a test can check the data is what this script writes from those inputs.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve, sep } from 'node:path'
import ts from 'typescript'

const repo = resolve(dirname(new URL(import.meta.url).pathname), '..')
const args = process.argv.slice(2)
const fromIndex = args.indexOf('--from')
const fromDir = fromIndex >= 0 ? resolve(args[fromIndex + 1]!) : undefined
const positional = args.filter((_, i) => i !== fromIndex && i !== fromIndex + 1)
const outDir = resolve(positional[0] ?? join(repo, 'src', 'catalogue', 'generated'))
const clientDir = join(repo, 'node_modules', 'stripe')
/** The first version served: the one pinned by the client's major of August 2020. */
const OLDEST = '2020-08-27'

interface Release {
  readonly version: string
  readonly client: string
}

/** Per version (oldest first), the last client release pinning it, read from the changelog. */
export function releasesFromChangelog(changelog: string): Release[] {
  const sections = changelog.split(/\n## /).slice(1).reverse()
  const last = new Map<string, string>()
  let current: string | undefined
  for (const section of sections) {
    const client = /^(?:<a id="[^"]*"><\/a>)?(\d+\.\d+\.\d+)\b/.exec(section)?.[1]
    if (!client) continue
    const pin = /changes the pinned API version to `([^`]+)`/.exec(section)?.[1]
    if (pin) current = pin
    if (current) last.set(current, client)
  }
  const all = [...last].map(([version, client]) => ({ version, client }))
  return all.slice(all.findIndex((r) => r.version === OLDEST))
}

/** Where a release's declarations are: `types/` (older layouts) or `cjs/resources/` (newer). */
function declarationFiles(pkg: string): { files: string[]; base: string; prefixDirs: boolean } {
  const walk = (dir: string): string[] =>
    readdirSync(dir)
      .sort()
      .flatMap((name) => {
        const path = join(dir, name)
        if (statSync(path).isDirectory()) return name === 'test' ? [] : walk(path)
        return name.endsWith('.d.ts') ? [path] : []
      })
  if (existsSync(join(pkg, 'types'))) return { files: walk(join(pkg, 'types')), base: join(pkg, 'types'), prefixDirs: false }
  const base = join(pkg, 'cjs', 'resources')
  return { files: walk(base), base, prefixDirs: true }
}

type FieldSets = Record<string, string[]>

interface Declared {
  /** The namespace the interface is declared in (`['Invoice']` for `Invoice.StatusTransitions`). */
  readonly scope: string[]
  readonly members: Array<{ key: string; optional: boolean; type: ts.TypeNode }>
  readonly isObject: boolean
  /** An index signature (`Metadata`): its keys are anyone's, never walked. */
  readonly indexed: boolean
}

/** A field's type with `| null`, `| undefined`, arrays, parentheses and `Emptyable<>` taken off: its parts. */
function parts(type: ts.TypeNode): ts.TypeNode[] {
  if (ts.isParenthesizedTypeNode(type)) return parts(type.type)
  if (ts.isArrayTypeNode(type)) return parts(type.elementType)
  if (ts.isUnionTypeNode(type)) return type.types.flatMap(parts)
  if (ts.isLiteralTypeNode(type) && type.literal.kind === ts.SyntaxKind.NullKeyword) return []
  if (type.kind === ts.SyntaxKind.UndefinedKeyword) return []
  if (ts.isTypeReferenceNode(type) && type.typeArguments?.length === 1) {
    const name = entityName(type.typeName)
    if (name === 'Array' || name === 'Emptyable') return parts(type.typeArguments[0]!)
  }
  return [type]
}

const entityName = (n: ts.EntityName): string =>
  (ts.isIdentifier(n) ? n.text : `${entityName(n.left)}.${n.right.text}`).replace(/^Stripe\./, '')

/**
 * What a field's type holds that the walk may enter: the names of the interfaces it names (one, or
 * several for a union such as `Card1 | Card2`), and whether it is an inline object literal with
 * fields of its own. A scalar, a string literal or `''` add nothing.
 */
function referenced(type: ts.TypeNode): { refs: string[]; literal: ts.TypeLiteralNode | undefined } {
  const refs: string[] = []
  let literal: ts.TypeLiteralNode | undefined
  for (const part of parts(type)) {
    if (ts.isTypeReferenceNode(part)) refs.push(entityName(part.typeName))
    else if (ts.isTypeLiteralNode(part) && part.members.some((m) => ts.isPropertySignature(m))) literal = part
  }
  return { refs, literal }
}

/** The property members of an interface or an inline object literal (methods left out). */
function membersOf(node: ts.InterfaceDeclaration | ts.TypeLiteralNode, source: ts.SourceFile | undefined): Declared['members'] {
  const members: Declared['members'] = []
  for (const m of node.members) {
    if (!ts.isPropertySignature(m) || !m.name || !m.type || ts.isFunctionTypeNode(m.type)) continue
    const key = ts.isIdentifier(m.name) || ts.isStringLiteral(m.name) ? m.name.text : m.name.getText(source)
    members.push({ key, optional: m.questionToken !== undefined, type: m.type })
  }
  return members
}

/**
 * The object types and params interfaces a release declares, with their fields, and the sub-object
 * types they nest (`Invoice.StatusTransitions`, `PaymentIntentCreateParams.PaymentMethodOptions`):
 * a field holding one is written `name:Type` (`status_transitions:Invoice.StatusTransitions`), so
 * the walk knows which field holds which sub-type at each version.
 */
export function readDeclarations(pkg: string): { objects: FieldSets; params: FieldSets } {
  const { files, base, prefixDirs } = declarationFiles(pkg)
  const all = new Map<string, Declared>()
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, false)
    const dirs = prefixDirs ? dirname(relative(base, file)).split(sep).filter((d) => d !== '.') : []
    const visit = (node: ts.Node, chain: string[]): void => {
      if (ts.isModuleDeclaration(node)) {
        const name = ts.isStringLiteral(node.name) ? undefined : node.name.text
        const inner = name === undefined || (name === 'Stripe' && chain.length === 0) ? chain : [...chain, name]
        if (node.body) visit(node.body, inner)
        return
      }
      if (ts.isModuleBlock(node) || ts.isSourceFile(node)) {
        for (const s of node.statements) visit(s, chain)
        return
      }
      if (!ts.isInterfaceDeclaration(node)) return
      const members = membersOf(node, source)
      const isObject = members.some((m) => m.key === 'object' && ts.isLiteralTypeNode(m.type) && ts.isStringLiteral(m.type.literal))
      const indexed = node.members.some((m) => ts.isIndexSignatureDeclaration(m))
      const scope = [...(dirs.every((d, i) => chain[i] === d) ? [] : dirs), ...chain]
      all.set([...scope, node.name.text].join('.'), { scope, members, isObject, indexed })
    }
    visit(source, [])
  }
  // A name is looked up as TypeScript does: from the innermost enclosing namespace outwards.
  const resolve = (ref: string, scope: readonly string[]): string | undefined => {
    for (let i = scope.length; i >= 0; i--) {
      const name = [...scope.slice(0, i), ref].join('.')
      if (all.has(name)) return name
    }
    return undefined
  }
  /**
   * A sub-object type a field may hold and the walk may enter: declared fields, not an index
   * signature, and no `object` literal (an object type is known by its `object` wherever it is).
   */
  const nestable = (name: string | undefined): name is string => {
    const t = name === undefined ? undefined : all.get(name)
    return t !== undefined && !t.indexed && !t.isObject && t.members.length > 0
  }
  /**
   * The sub-type a field holds, by name: an interface, a union of several written `A|B` (its fields
   * those of any member, all optional: which member a value is cannot be told), or an inline
   * literal written `Owner#field` (declared here as the interface it stands for).
   */
  const subOf = (owner: string, t: Declared, m: Declared['members'][number]): string | undefined => {
    const { refs, literal } = referenced(m.type)
    if (literal !== undefined && refs.length === 0) {
      const name = `${owner}#${m.key}`
      if (!all.has(name)) all.set(name, { scope: t.scope, members: membersOf(literal, undefined), isObject: false, indexed: false })
      return nestable(name) ? name : undefined
    }
    const subs = [...new Set(refs.map((r) => resolve(r, t.scope)))].filter(nestable).sort()
    if (subs.length === 0) return undefined
    if (subs.length === 1) return subs[0]
    const name = subs.join('|')
    if (!all.has(name)) {
      const members = new Map<string, Declared['members'][number]>()
      for (const s of subs) for (const sm of all.get(s)!.members) if (!members.has(sm.key)) members.set(sm.key, { ...sm, optional: true })
      all.set(name, { scope: all.get(subs[0]!)!.scope, members: [...members.values()], isObject: false, indexed: false })
    }
    return name
  }
  const tokens = (name: string): { fields: string[]; subs: string[] } => {
    const t = all.get(name)!
    const subs: string[] = []
    const fields = t.members.map((m) => {
      const sub = subOf(name, t, m)
      const token = m.optional ? `${m.key}?` : m.key
      if (sub === undefined || sub === name) return token
      subs.push(sub)
      return `${token}:${sub}`
    })
    return { fields: [...new Set(fields)].sort(), subs }
  }
  // Top-level types (`Invoice`, `Checkout.Session`, `InvoiceCreateParams`) and the sub-object types
  // reachable from them through their fields; a type inside the namespace of another type
  // (`Invoice.StatusTransitions`) is listed only when some field holds it.
  const reach = (roots: string[]): FieldSets => {
    const out: FieldSets = {}
    const queue = [...roots]
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
      if (name in out) continue
      const { fields, subs } = tokens(name)
      out[name] = fields
      queue.push(...subs)
    }
    return Object.fromEntries(Object.keys(out).sort().map((k) => [k, out[k]!]))
  }
  const top = [...all.keys()].filter((name) => !all.has(name.split('.').slice(0, -1).join('.'))).sort()
  return {
    objects: reach(top.filter((name) => !/Params$/.test(name) && all.get(name)!.isObject)),
    params: reach(top.filter((name) => /Params$/.test(name))),
  }
}

/** An operation as a release declares it: verb and path from its resource file, params and returns from its `.d.ts`. */
export interface DeclaredOperation {
  readonly method: string
  readonly path: string
  readonly pathParams: string[]
  readonly params: string | null
  readonly returns: { kind: 'object' | 'list'; type: string } | null
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1)

/**
 * The operations a release declares, by the catalogue's name (`invoices.retrieveUpcoming`): verb
 * and path from each resource's `stripeMethod({ method, fullPath | path })` (older layouts give the
 * path under the resource's own `path`), params and return types from the resource class of its
 * declarations. Operations whose path is computed are left out.
 */
export function readOperations(pkg: string): Record<string, DeclaredOperation> {
  const jsDir = existsSync(join(pkg, 'cjs', 'resources')) ? join(pkg, 'cjs', 'resources') : join(pkg, 'lib', 'resources')
  const signatures = readSignatures(pkg)
  const out: Record<string, DeclaredOperation> = {}
  const walk = (dir: string): string[] =>
    readdirSync(dir)
      .sort()
      .flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : name.endsWith('.js') ? [join(dir, name)] : []))
  for (const file of walk(jsDir)) {
    const text = readFileSync(file, 'utf8')
    const resource = relative(jsDir, file).replace(/\.js$/, '').split(sep).map(lowerFirst).join('.')
    const basePath = /\bpath:\s*'([^'{]*)',\s*\n/.exec(text.split('stripeMethod(')[0] ?? '')?.[1]
    const re = /(\w+):\s*stripeMethod\(\{([\s\S]*?)\}\)/g
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const body = m[2]!
      const method = /method:\s*'(\w+)'/.exec(body)?.[1]
      const full = /fullPath:\s*'([^']*)'/.exec(body)?.[1]
      const sub = /\bpath:\s*'([^']*)'/.exec(body)?.[1]
      const raw = full ?? (basePath === undefined ? undefined : `/v1/${basePath}${sub ?? ''}`)
      if (method === undefined || raw === undefined) continue
      const pathParams: string[] = []
      const path = raw.replace(/\{(\w+)\}/g, (_, name: string) => {
        pathParams.push(name)
        return `:${name}`
      })
      const name = `${resource}.${m[1]}`
      out[name] = { method, path, pathParams, params: null, returns: null, ...signatures.get(name) }
    }
  }
  return out
}

/** Per operation name, the params type and the returned type its resource class declares. */
function readSignatures(pkg: string): Map<string, Pick<DeclaredOperation, 'params' | 'returns'>> {
  const out = new Map<string, Pick<DeclaredOperation, 'params' | 'returns'>>()
  const { files } = declarationFiles(pkg)
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, false)
    const visit = (node: ts.Node, chain: string[]): void => {
      if (ts.isModuleDeclaration(node)) {
        const name = ts.isStringLiteral(node.name) ? undefined : node.name.text
        const inner = name === undefined || name === 'Stripe' ? chain : [...chain, name]
        if (node.body) visit(node.body, inner)
        return
      }
      if (ts.isModuleBlock(node) || ts.isSourceFile(node)) {
        for (const s of node.statements) visit(s, chain)
        return
      }
      if (!ts.isClassDeclaration(node) || !node.name?.text.endsWith('Resource')) return
      const resource = [...chain, node.name.text.replace(/Resource$/, '')].map(lowerFirst).join('.')
      for (const m of node.members) {
        if (!ts.isMethodDeclaration(m) || !m.name || !ts.isIdentifier(m.name)) continue
        const name = `${resource}.${m.name.text}`
        const params = m.parameters.map((p) => p.type?.getText(source) ?? '').find((t) => /Params$/.test(t)) ?? null
        const text = m.type?.getText(source) ?? ''
        const list = /ApiListPromise<Stripe\.([\w.]+)>/.exec(text)?.[1]
        const one = /Response<Stripe\.([\w.]+)>/.exec(text)?.[1]
        const returns = list ? { kind: 'list' as const, type: list } : one ? { kind: 'object' as const, type: one } : null
        const known = out.get(name)
        // Overloads repeat a method without its params: the first, fullest one is kept.
        if (known === undefined || (known.params === null && params !== null)) out.set(name, { params, returns })
      }
    }
    visit(source, [])
  }
  return out
}

type Delta = Record<string, { '+'?: string[]; '-'?: string[] }>

function delta(older: FieldSets, newer: FieldSets): Delta {
  const out: Delta = {}
  for (const name of [...new Set([...Object.keys(older), ...Object.keys(newer)])].sort()) {
    const a = new Set(older[name] ?? [])
    const b = new Set(newer[name] ?? [])
    const plus = [...a].filter((f) => !b.has(f)).sort()
    const minus = [...b].filter((f) => !a.has(f)).sort()
    // A type absent at one side is marked by `*` so "no fields" and "no type" stay distinct; a
    // type that appeared later needs no field list to be walked back.
    if (!(name in older)) minus.splice(0, minus.length, '*')
    if (!(name in newer)) plus.unshift('*')
    if (plus.length || minus.length) out[name] = { ...(plus.length ? { '+': plus } : {}), ...(minus.length ? { '-': minus } : {}) }
  }
  return out
}

function unpack(client: string, work: string): { dir: string; integrity: string } {
  const target = join(work, `stripe-${client}`)
  if (!existsSync(join(target, 'integrity.json'))) {
    const out = execFileSync('npm', ['pack', `stripe@${client}`, '--json', '--pack-destination', work], { encoding: 'utf8' })
    const [info] = JSON.parse(out) as Array<{ filename: string; integrity: string }>
    mkdirSync(target, { recursive: true })
    execFileSync('tar', ['xzf', join(work, info!.filename), '-C', target])
    writeFileSync(join(target, 'integrity.json'), JSON.stringify({ integrity: info!.integrity }))
  }
  return { dir: join(target, 'package'), integrity: JSON.parse(readFileSync(join(target, 'integrity.json'), 'utf8')).integrity }
}

/** The pinned client's tarball integrity, as the lockfile records it. */
function lockedIntegrity(): string {
  const lock = JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8'))
  return lock.packages?.['node_modules/stripe']?.integrity ?? 'unknown'
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const pinned = JSON.parse(readFileSync(join(clientDir, 'package.json'), 'utf8')).version as string
  const releases = releasesFromChangelog(readFileSync(join(clientDir, 'CHANGELOG.md'), 'utf8'))
  // `--from <dir>` keeps the unpacked releases there between runs; otherwise a temporary directory.
  const work = fromDir ?? mkdtempSync(join(tmpdir(), 'versions-'))
  mkdirSync(work, { recursive: true })
  try {
    const read = releases.map((r) => {
      const { dir, integrity } = r.client === pinned ? { dir: clientDir, integrity: lockedIntegrity() } : unpack(r.client, work)
      process.stderr.write(`read ${r.version} from stripe@${r.client}\n`)
      return { ...r, integrity, ...readDeclarations(dir), operations: readOperations(dir) }
    })
    const newestFirst = [...read].reverse()
    const deltas: Record<string, { objects: Delta; params: Delta }> = {}
    for (let i = 1; i < newestFirst.length; i++) {
      const older = newestFirst[i]!
      const newer = newestFirst[i - 1]!
      deltas[older.version] = { objects: delta(older.objects, newer.objects), params: delta(older.params, newer.params) }
    }
    const current = newestFirst[0]!
    const versions = {
      generatedBy: 'scripts/generate-versions.ts',
      current: current.version,
      versions: newestFirst.map((r) => ({ version: r.version, client: r.client, integrity: r.integrity })),
    }
    const lines = Object.entries(deltas).map(([v, d]) => `${JSON.stringify(v)}:${JSON.stringify(d)}`)
    writeFileSync(join(outDir, 'versions.json'), `${JSON.stringify(versions, null, 1)}\n`)
    writeFileSync(join(outDir, 'version-deltas.json'), `{\n${lines.join(',\n')}\n}\n`)
    // The current release's full field lists: what the deltas walk back from.
    writeFileSync(
      join(outDir, 'version-base.json'),
      `${JSON.stringify({ version: current.version, objects: current.objects, params: current.params })}\n`,
    )
    // Operations the current client no longer declares: each with the last version whose client
    // declared it, as that client declared it (the version-gated operations).
    // Matched by verb and path against the catalogue (the current client's operations, whatever
    // their layout), so a rename between releases is one operation under its newest name.
    const catalogue = JSON.parse(readFileSync(join(repo, 'src', 'catalogue', 'generated', 'operations.json'), 'utf8')) as {
      operations: Array<{ method: string; path: string }>
    }
    const shape = (method: string, path: string) => `${method} ${path.replace(/:\w+/g, ':')}`
    const served = new Set(catalogue.operations.map((op) => shape(op.method, op.path)))
    const retired: Record<string, DeclaredOperation & { last: string }> = {}
    for (const r of newestFirst.slice(1)) {
      for (const [name, op] of Object.entries(r.operations)) {
        const key = shape(op.method, op.path)
        if (served.has(key)) continue
        served.add(key)
        retired[name] = { ...op, last: r.version }
      }
    }
    const retiredLines = Object.keys(retired)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${JSON.stringify(retired[name])}`)
    writeFileSync(join(outDir, 'version-operations.json'), `{\n${retiredLines.join(',\n')}\n}\n`)
    process.stderr.write(`wrote ${releases.length} versions to ${relative(repo, outDir) || '.'}\n`)
  } finally {
    if (!fromDir) rmSync(work, { recursive: true, force: true })
  }
}
