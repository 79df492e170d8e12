// Generates the operation catalogue (src/catalogue/generated/*.json) from the pinned official client
// in node_modules/stripe. Run with `npm run catalogue` (or `npx tsx scripts/generate-catalogue.ts [outDir]`).
//
// Two readings of the client:
// 1. Names, verbs, paths and hosts: a `new Stripe()` instance is walked the way a caller reaches
//    its methods (`stripe.billing.meters.create`), and each method's own source text gives the
//    `_makeRequest('VERB', path, ...)` call and its `apiBase`. So the names are the runtime ones
//    (`resourceNamespace` camelCases the class names; `account` is the same object as `accounts`).
// 2. Parameters and returned objects: the `.d.ts` beside each resource file, read through the
//    TypeScript compiler API (syntax walk, with the checker resolving names across files).
//
// Output is deterministic: operations sorted by name, object keys sorted; types.json one type per line.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { pathToFileURL } from 'node:url'
import ts from 'typescript'
import { typeTableText } from '../src/catalogue/type-table.js'
import type { Catalogue, Field, Operation, Returns, Shape } from '../src/catalogue/types.js'

const repo = resolve(dirname(new URL(import.meta.url).pathname), '..')
const clientDir = join(repo, 'node_modules', 'stripe')
const esm = join(clientDir, 'esm')
const resourcesDir = join(esm, 'resources')
const outDir = resolve(process.argv[2] ?? join(repo, 'src', 'catalogue', 'generated'))

/** What the generator could not read, printed at the end and written beside the data. */
const notes: string[] = []

function jsFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) return jsFiles(path)
      return name.endsWith('.js') && name !== 'index.js' ? [path] : []
    })
}

// ---------------------------------------------------------------------------------------------
// 1. The runtime walk: client call paths, verbs, paths, hosts.
// ---------------------------------------------------------------------------------------------

interface RawOperation {
  name: string
  method: Operation['method']
  path: string
  pathParams: string[]
  host: NonNullable<Operation['host']>
  className: string
  methodName: string
  dts: string
}

const url = (path: string) => pathToFileURL(path).href
const { default: Stripe } = (await import(url(join(esm, 'stripe.esm.node.js')))) as { default: any }
const { StripeResource } = (await import(url(join(esm, 'StripeResource.js')))) as { StripeResource: any }
const clientVersion: string = JSON.parse(readFileSync(join(clientDir, 'package.json'), 'utf8')).version
const { ApiVersion: apiVersion } = (await import(url(join(esm, 'apiVersion.js')))) as { ApiVersion: string }

/** Resource class -> its file (the same module instances the client uses, so identity holds). */
const classFile = new Map<unknown, string>()
for (const file of jsFiles(resourcesDir)) {
  const mod = (await import(url(file))) as Record<string, unknown>
  for (const value of Object.values(mod)) if (typeof value === 'function') classFile.set(value, file)
}

const client = new Stripe('sk_test_catalogue')
const raw: RawOperation[] = []
const seen = new Set<unknown>([client])

function walk(node: Record<string, unknown>, prefix: string[]): void {
  for (const key of Object.keys(node)) {
    if (key.startsWith('_')) continue
    const value = node[key] as any
    if (!value || typeof value !== 'object' || seen.has(value)) continue
    if (value instanceof StripeResource) {
      seen.add(value)
      readResource(value, [...prefix, key])
      walk(value, [...prefix, key]) // nested resources: `v2.core.accounts.persons`
    } else if (prefix.length < 5 && Object.getPrototypeOf(value) !== Object.prototype) {
      // A namespace (`billing`, `v2.core`): an instance of a generated class holding resources.
      seen.add(value)
      walk(value, [...prefix, key])
    }
  }
}

function readResource(resource: any, path: string[]): void {
  const file = classFile.get(resource.constructor)
  if (!file) {
    notes.push(`${path.join('.')}: class ${resource.constructor.name} not found in resources/`)
    return
  }
  const methods: string[] = []
  for (let proto = Object.getPrototypeOf(resource); proto && proto !== StripeResource.prototype; ) {
    for (const name of Object.getOwnPropertyNames(proto)) if (name !== 'constructor' && !methods.includes(name)) methods.push(name)
    proto = Object.getPrototypeOf(proto)
  }
  for (const methodName of methods) {
    const fn = resource[methodName]
    if (typeof fn !== 'function') continue
    const name = [...path, methodName].join('.')
    const source = String(fn)
    const call = /_makeRequest\(\s*'(GET|POST|DELETE)',\s*(`[^`]*`|'[^']*'|[^,]+),/.exec(source)
    if (!call) {
      notes.push(`${name}: makes no request (not an operation)`)
      continue
    }
    const literal = call[2]!
    if (!/^[`']/.test(literal)) {
      notes.push(`${name}: path is computed at run time (${literal.trim()}), skipped`)
      continue
    }
    const pathParams: string[] = []
    const template = literal.slice(1, -1).replace(/\$\{encodeURIComponent\((\w+)\)\}/g, (_, arg: string) => {
      pathParams.push(arg)
      return `:${arg}`
    })
    if (template.includes('${')) {
      notes.push(`${name}: unreadable path ${literal}, skipped`)
      continue
    }
    if (!/^\/v[12]\//.test(template)) {
      notes.push(`${name}: ${call[1]} ${template} is not under /v1 or /v2 (another host), skipped`)
      continue
    }
    const apiBase = /apiBase:\s*'(\w+)'/.exec(source)?.[1]
    const host = apiBase === 'files' ? 'files' : apiBase === 'meter_events' ? 'meter_events' : 'api'
    if (apiBase && host === 'api') notes.push(`${name}: unknown apiBase ${apiBase}, recorded as api`)
    raw.push({
      name,
      method: call[1] as Operation['method'],
      path: template,
      pathParams,
      host,
      className: resource.constructor.name,
      methodName,
      dts: file.replace(/\.js$/, '.d.ts'),
    })
  }
}

walk(client, [])

// ---------------------------------------------------------------------------------------------
// 2. The declarations: params and returned types.
// ---------------------------------------------------------------------------------------------

const dtsFiles = [...new Set(raw.map((r) => r.dts))].sort()
const program = ts.createProgram(dtsFiles, {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  skipLibCheck: true,
  noEmit: true,
  types: [],
})
const checker = program.getTypeChecker()

/** Named types, filled as operations reach them. */
const types = new Map<string, Shape>()
const named = new Map<string, ts.Symbol>()
const queue: Array<{ name: string; symbol: ts.Symbol }> = []
/** Types whose fields may hold expandable ids: everything except params. */
const isParamsName = (name: string) => /Params?$/.test(name.split('.').pop()!) || /Params\./.test(name)

/** `Billing.MeterCreateParams`, `Customer.InvoiceSettings`, `V2.Billing.MeterEvent`, `AddressParam`. */
function qualifiedName(decl: ts.Declaration & { name?: ts.Node }): string {
  const chain: string[] = []
  for (let p: ts.Node | undefined = decl.parent; p && !ts.isSourceFile(p); p = p.parent) {
    if (ts.isModuleDeclaration(p)) chain.unshift(p.name.getText())
  }
  const rel = relative(resourcesDir, decl.getSourceFile().fileName)
  const dirs = rel.startsWith('..') ? [] : dirname(rel).split(sep).filter((d) => d !== '.')
  const prefixed = dirs.every((d, i) => chain[i] === d) ? chain : [...dirs, ...chain]
  return [...prefixed, (decl.name as ts.Identifier).text].join('.')
}

function resolveSymbol(node: ts.EntityName): ts.Symbol | undefined {
  let symbol = checker.getSymbolAtLocation(node)
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol)
  return symbol
}

/** Declared numbers that are not integers: the declarations say `number` for both. */
const FLOAT_FIELD = /(percent|percentage|_rate$|^rate$|exchange_rate|fx_rate|ratio|multiplier|latitude|longitude|score|_quantity_decimal)/

const OTHER_STRING: Shape = Object.freeze({ t: 'string' }) as Shape
const UNDEFINED: Shape = Object.freeze({ t: 'any' }) as Shape

interface Ctx {
  /** Type parameters in scope (Emptyable<T>). */
  env: Map<string, ts.TypeNode>
  /** The field the shape belongs to (for integer/number). */
  field: string
  /** Inside a params type: `string | X` is not an expandable id there. */
  params: boolean
  depth: number
}

function shapeOf(node: ts.TypeNode, ctx: Ctx): Shape {
  if (ctx.depth > 40) {
    notes.push(`recursion too deep at ${node.getText().slice(0, 60)}`)
    return { t: 'any' }
  }
  const inner = { ...ctx, depth: ctx.depth + 1 }
  switch (node.kind) {
    case ts.SyntaxKind.StringKeyword:
      return { t: 'string' }
    case ts.SyntaxKind.NumberKeyword:
      return FLOAT_FIELD.test(ctx.field) ? { t: 'number' } : { t: 'integer' }
    case ts.SyntaxKind.BooleanKeyword:
      return { t: 'boolean' }
    case ts.SyntaxKind.UndefinedKeyword:
    case ts.SyntaxKind.VoidKeyword:
      return UNDEFINED
    case ts.SyntaxKind.NullKeyword:
      return { t: 'literal', value: null }
    case ts.SyntaxKind.AnyKeyword:
    case ts.SyntaxKind.UnknownKeyword:
    case ts.SyntaxKind.ObjectKeyword:
      return { t: 'any' }
  }
  if (ts.isParenthesizedTypeNode(node)) return shapeOf(node.type, inner)
  if (ts.isLiteralTypeNode(node)) {
    const l = node.literal
    if (l.kind === ts.SyntaxKind.NullKeyword) return { t: 'literal', value: null }
    if (l.kind === ts.SyntaxKind.TrueKeyword) return { t: 'literal', value: true }
    if (l.kind === ts.SyntaxKind.FalseKeyword) return { t: 'literal', value: false }
    if (ts.isStringLiteral(l)) return { t: 'literal', value: l.text }
    if (ts.isNumericLiteral(l)) return { t: 'literal', value: Number(l.text) }
    if (ts.isPrefixUnaryExpression(l) && ts.isNumericLiteral(l.operand)) return { t: 'literal', value: -Number(l.operand.text) }
  }
  if (ts.isArrayTypeNode(node)) return { t: 'array', of: shapeOf(node.elementType, inner) }
  if (ts.isTupleTypeNode(node)) {
    return { t: 'array', of: union(node.elements.map((e) => shapeOf(ts.isNamedTupleMember(e) ? e.type : e, inner)), ctx) }
  }
  if (ts.isUnionTypeNode(node)) return union(node.types.map((t) => shapeOf(t, inner)), ctx)
  if (ts.isIntersectionTypeNode(node)) {
    const parts = node.types.map((t) => shapeOf(t, inner))
    if (parts.every((p) => p.t === 'object')) {
      const fields: Record<string, Field> = {}
      for (const p of parts) Object.assign(fields, (p as { fields: Record<string, Field> }).fields)
      return { t: 'object', fields: sortKeys(fields) }
    }
    notes.push(`intersection read as any: ${node.getText().slice(0, 80)}`)
    return { t: 'any' }
  }
  if (ts.isTypeLiteralNode(node)) return objectOf(node.members, inner)
  if (ts.isTypeReferenceNode(node)) return referenceOf(node, inner)
  if (ts.isFunctionTypeNode(node)) return UNDEFINED
  notes.push(`type read as any: ${ts.SyntaxKind[node.kind]} ${node.getText().slice(0, 80)}`)
  return { t: 'any' }
}

function referenceOf(node: ts.TypeReferenceNode, ctx: Ctx): Shape {
  const text = node.typeName.getText()
  const args = node.typeArguments ?? []
  if (ts.isIdentifier(node.typeName) && ctx.env.has(text)) return shapeOf(ctx.env.get(text)!, ctx)
  if (text === 'Array' || text === 'ReadonlyArray') return { t: 'array', of: args[0] ? shapeOf(args[0], ctx) : { t: 'any' } }
  if (text === 'Record' && args[1]) return { t: 'map', of: shapeOf(args[1], ctx) }
  const symbol = resolveSymbol(node.typeName)
  // `Event` is both a namespace and a type: take the declaration that is a type.
  const decl =
    symbol?.declarations?.find((d) => ts.isInterfaceDeclaration(d) || ts.isTypeAliasDeclaration(d) || ts.isClassDeclaration(d)) ??
    symbol?.declarations?.[0]
  if (!symbol || !decl) {
    notes.push(`unresolved type ${text}`)
    return { t: 'any' }
  }
  const file = decl.getSourceFile().fileName
  if (!file.startsWith(esm)) return { t: 'any' } // Buffer, Blob, NodeJS.ReadableStream...
  if (file === join(esm, 'Decimal.d.ts')) return { t: 'decimal' }
  if (ts.isTypeAliasDeclaration(decl)) {
    if (decl.name.text === 'OtherString') return OTHER_STRING
    // A named union of object types (`Event = AccountUpdatedEvent | ...`) is stored once, as a named type.
    if (!decl.typeParameters && ts.isUnionTypeNode(decl.type) && decl.type.types.every((t) => ts.isTypeReferenceNode(t))) {
      return namedRef(decl, symbol)
    }
    const env = new Map(ctx.env)
    decl.typeParameters?.forEach((p, i) => {
      const arg = args[i] ?? p.default
      if (arg) env.set(p.name.text, arg)
    })
    return shapeOf(decl.type, { ...ctx, env })
  }
  if (ts.isInterfaceDeclaration(decl)) {
    if (decl.typeParameters?.length) {
      notes.push(`generic interface ${text} read as any`)
      return { t: 'any' }
    }
    return namedRef(decl, symbol)
  }
  if (ts.isClassDeclaration(decl)) return { t: 'any' }
  notes.push(`type ${text} (${ts.SyntaxKind[decl.kind]}) read as any`)
  return { t: 'any' }
}

function namedRef(decl: ts.InterfaceDeclaration | ts.TypeAliasDeclaration, symbol: ts.Symbol): Shape {
  const name = qualifiedName(decl)
  const known = named.get(name)
  if (known && known !== symbol) notes.push(`two declarations named ${name}; the first kept`)
  if (!known) {
    named.set(name, symbol)
    queue.push({ name, symbol })
  }
  return { t: 'ref', name }
}

/** Members of a type literal or interface (with what it extends) as an object or map shape. */
function objectOf(members: readonly ts.TypeElement[], ctx: Ctx): Shape {
  const fields: Record<string, Field> = {}
  let index: Shape | undefined
  for (const member of members) {
    if (ts.isIndexSignatureDeclaration(member)) {
      if (member.type) index = shapeOf(member.type, { ...ctx, field: '' })
      continue
    }
    if (!ts.isPropertySignature(member) || !member.type || !member.name) continue
    if (ts.isFunctionTypeNode(member.type)) continue
    const key = ts.isIdentifier(member.name) || ts.isStringLiteral(member.name) ? member.name.text : member.name.getText()
    fields[key] = fieldOf(shapeOf(member.type, { ...ctx, field: key }), member.questionToken !== undefined)
  }
  if (index && Object.keys(fields).length === 0) return { t: 'map', of: index }
  return { t: 'object', fields: sortKeys(fields) }
}

/** `| null` and `| undefined` leave the shape and become the field's flags. */
function fieldOf(shape: Shape, optional: boolean): Field {
  let nullable = false
  let undef = false
  let s = shape
  if (s.t === 'literal' && s.value === null) return { shape: { t: 'any' }, ...(optional ? { optional: true } : {}), nullable: true }
  if (s.t === 'union') {
    const rest = s.of.filter((m) => {
      if (m.t === 'literal' && m.value === null) return !(nullable = true)
      if (m === UNDEFINED) return !(undef = true)
      return true
    })
    s = rest.length === 1 ? rest[0]! : { t: 'union', of: rest }
  }
  const field: { shape: Shape; optional?: true; nullable?: true } = { shape: s }
  if (optional || undef) field.optional = true
  if (nullable) field.nullable = true
  return field
}

function union(parts: Shape[], ctx: Ctx): Shape {
  const flat: Shape[] = []
  const push = (s: Shape) => {
    if (s.t === 'union') s.of.forEach(push)
    else if (!flat.some((f) => f === s || JSON.stringify(f) === JSON.stringify(s))) flat.push(s)
  }
  parts.forEach(push)
  // Literal strings (with or without the client's open `OtherString`) are an enum.
  const strings = flat.filter((s) => s.t === 'literal' && typeof s.value === 'string') as Array<{ value: string }>
  const others = flat.filter((s) => !(s.t === 'literal' && typeof s.value === 'string') && s !== OTHER_STRING)
  let members: Shape[] = flat
  if (strings.length > 0 && (strings.length > 1 || flat.includes(OTHER_STRING))) {
    const en: Shape = { t: 'string', enum: strings.map((s) => s.value) }
    members = [en, ...others]
  } else if (flat.includes(OTHER_STRING)) members = flat.map((s) => (s === OTHER_STRING ? { t: 'string' } : s))
  // `string | Customer` in a returned object: an id the caller can expand.
  if (!ctx.params) {
    const plain = members.findIndex((m) => m.t === 'string' && !m.enum)
    const refs = members.filter((m) => m.t === 'ref' && !isParamsName(m.name))
    if (plain >= 0 && refs.length > 0) {
      const object: Shape = refs.length === 1 ? refs[0]! : { t: 'union', of: refs }
      const rest = members.filter((m, i) => i !== plain && !refs.includes(m))
      members = [{ t: 'expandable', object }, ...rest]
    }
  }
  return members.length === 1 ? members[0]! : { t: 'union', of: members }
}

function interfaceShape(name: string, symbol: ts.Symbol): Shape {
  const alias = symbol.declarations?.find(ts.isTypeAliasDeclaration)
  if (alias) return shapeOf(alias.type, { env: new Map(), field: '', params: isParamsName(name), depth: 0 })
  const members: ts.TypeElement[] = []
  const visited = new Set<ts.Symbol>()
  const collect = (sym: ts.Symbol) => {
    if (visited.has(sym)) return
    visited.add(sym)
    for (const decl of sym.declarations ?? []) {
      if (!ts.isInterfaceDeclaration(decl)) continue
      for (const clause of decl.heritageClauses ?? []) {
        for (const base of clause.types) {
          if (!ts.isIdentifier(base.expression) && !ts.isPropertyAccessExpression(base.expression)) continue
          let s = checker.getSymbolAtLocation(base.expression)
          if (s && s.flags & ts.SymbolFlags.Alias) s = checker.getAliasedSymbol(s)
          if (s) collect(s)
        }
      }
      members.push(...decl.members)
    }
  }
  collect(symbol)
  // Later members (the interface's own) win over inherited ones.
  return objectOf(members, { env: new Map(), field: '', params: isParamsName(name), depth: 0 })
}

function sortKeys<V>(record: Record<string, V>): Record<string, V> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

function findMethod(r: RawOperation): ts.MethodDeclaration | undefined {
  const source = program.getSourceFile(r.dts)
  if (!source) return undefined
  const klass = source.statements.find((s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === r.className)
  const members: readonly ts.ClassElement[] = klass?.members ?? []
  const overloads = members.filter(
    (m): m is ts.MethodDeclaration => ts.isMethodDeclaration(m) && m.name.getText() === r.methodName,
  )
  return (
    overloads.find((m) => m.parameters.findIndex((p) => p.name.getText() === 'params') === r.pathParams.length) ?? overloads[0]
  )
}

function returnsOf(node: ts.TypeNode | undefined, op: string): Returns {
  const ctx: Ctx = { env: new Map(), field: '', params: false, depth: 0 }
  const unwrap = (n: ts.TypeNode): { kind: Returns['kind']; node?: ts.TypeNode } => {
    if (!ts.isTypeReferenceNode(n)) return { kind: 'other' }
    const name = n.typeName.getText()
    const arg = n.typeArguments?.[0]
    if (!arg) return { kind: 'other' }
    if (name === 'ApiListPromise' || name === 'V2ListPromise' || name === 'ApiList' || name === 'V2List') return { kind: 'list', node: arg }
    if (/SearchResult(Promise)?$/.test(name)) return { kind: 'search', node: arg }
    if (name === 'Promise' || name === 'Response') {
      const innerArg = unwrap(arg)
      return innerArg.kind === 'other' && ts.isTypeReferenceNode(arg) && !['Promise', 'Response'].includes(arg.typeName.getText())
        ? { kind: 'object', node: arg }
        : innerArg.kind === 'other' && ts.isUnionTypeNode(arg)
          ? { kind: 'object', node: arg }
          : innerArg
    }
    return { kind: 'other' }
  }
  if (!node) return { kind: 'other' }
  const { kind, node: inner } = unwrap(node)
  if (!inner || kind === 'other') {
    notes.push(`${op}: returns ${node.getText()} (kind other)`)
    return { kind: 'other' }
  }
  const shape = shapeOf(inner, ctx)
  const refs = shape.t === 'ref' ? [shape.name] : shape.t === 'union' ? shape.of.flatMap((s) => (s.t === 'ref' ? [s.name] : [])) : []
  if (refs.length === 0) {
    notes.push(`${op}: returns ${inner.getText()} (no named type, kind other)`)
    return { kind: 'other' }
  }
  const main = refs.find((r) => !/(^|\.)Deleted/.test(r)) ?? refs[0]!
  if (kind === 'object' && refs.length > 1) return { kind, type: main, oneOf: refs }
  return { kind, type: main } as Returns
}

const operations: Operation[] = []
for (const r of raw) {
  const method = findMethod(r)
  if (!method) notes.push(`${r.name}: no declaration of ${r.className}.${r.methodName} in ${relative(esm, r.dts)}`)
  const paramsNode = method?.parameters.find((p) => p.name.getText() === 'params')?.type
  let params: string | undefined
  if (paramsNode) {
    const shape = shapeOf(paramsNode, { env: new Map(), field: '', params: true, depth: 0 })
    if (shape.t === 'ref') params = shape.name
    else notes.push(`${r.name}: params ${paramsNode.getText()} is not a named type`)
  }
  const returns = returnsOf(method?.type, r.name)
  const dirs = dirname(relative(resourcesDir, r.dts)).split(sep).filter((d) => d !== '.')
  const own = [...dirs, r.className.replace(/Resource$/, '')].join('.')
  operations.push({
    name: r.name,
    method: r.method,
    path: r.path,
    pathParams: r.pathParams,
    ...(params ? { params } : {}),
    returns,
    resource: own,
    api: r.path.startsWith('/v2/') ? 'v2' : 'v1',
    host: r.host,
  })
}

while (queue.length > 0) {
  const { name, symbol } = queue.shift()!
  types.set(name, interfaceShape(name, symbol))
}

// The resource an operation belongs to: its object type when the client declares one.
// Otherwise the type its class returns most often (`v2.core.accounts.persons.*` -> `V2.Core.AccountPerson`),
// or, when it returns none, the class name.
for (const op of operations as Array<{ resource: string; returns: Returns }>) {
  if (types.has(op.resource)) continue
  const siblings = operations.filter((o) => o.resource === op.resource && 'type' in o.returns && o.returns.type)
  const counts = new Map<string, number>()
  for (const o of siblings) counts.set((o.returns as { type: string }).type, (counts.get((o.returns as { type: string }).type) ?? 0) + 1)
  const best = [...counts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))[0]?.[0]
  ;(op as { resolved?: string }).resolved = best ?? `${op.resource.split('.').pop()}Resource`
}
for (const op of operations as Array<{ resource: string; resolved?: string }>) {
  if (op.resolved) {
    op.resource = op.resolved
    delete op.resolved
  }
}

const objects = new Map<string, string>()
const better = (a: string, b: string) => {
  const score = (n: string) => [/(^|\.)Deleted/.test(n) ? 1 : 0, n.split('.').length, n.length]
  const [x, y] = [score(a), score(b)]
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! < y[i]!
  return a < b
}
for (const [name, shape] of types) {
  if (shape.t !== 'object') continue
  const object = shape.fields.object?.shape
  if (object?.t !== 'literal' || typeof object.value !== 'string') continue
  const current = objects.get(object.value)
  if (!current || better(name, current)) objects.set(object.value, name)
}

operations.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
const catalogue: Catalogue = {
  clientVersion,
  apiVersion,
  operations,
  types: sortKeys(Object.fromEntries(types)),
  objects: sortKeys(Object.fromEntries(objects)),
}

// Field names that hold an expandable id (`price: string | Price`) in returned types, with the
// types they name: a parameter of that name, at any depth (`items[][price]`), names such an object,
// so the simulator checks it exists without reading every type at run time.
const referenceNames = new Map<string, Set<string>>()
for (const [name, shape] of types) {
  if (isParamsName(name) || shape.t !== 'object') continue
  for (const [field, f] of Object.entries(shape.fields)) {
    const s = f.shape.t === 'array' ? f.shape.of : f.shape
    if (s.t !== 'expandable') continue
    const o = s.object
    const targets = o.t === 'ref' ? [o.name] : o.t === 'union' ? o.of.flatMap((m) => (m.t === 'ref' ? [m.name] : [])) : []
    for (const target of targets) {
      if (/(^|\.)Deleted/.test(target)) continue
      const set = referenceNames.get(field) ?? new Set<string>()
      set.add(target)
      referenceNames.set(field, set)
    }
  }
}

const header = { clientVersion, apiVersion, generatedBy: 'scripts/generate-catalogue.ts' }
mkdirSync(outDir, { recursive: true })
writeFileSync(
  join(outDir, 'operations.json'),
  `${JSON.stringify({ ...header, operations: catalogue.operations, objects: catalogue.objects }, null, 1)}\n`,
)
// One type per line, so a process parses only the types it uses (src/catalogue/type-table.ts).
writeFileSync(join(outDir, 'types.json'), typeTableText(header, catalogue.types))
writeFileSync(
  join(outDir, 'references.json'),
  `${JSON.stringify({ ...header, names: sortKeys(Object.fromEntries([...referenceNames].map(([k, v]) => [k, [...v].sort()]))) }, null, 1)}\n`,
)
const unread = [...new Set(notes)].sort()
writeFileSync(join(outDir, 'unread.txt'), unread.length ? `${unread.join('\n')}\n` : '')
console.log(
  `catalogue: ${operations.length} operations, ${types.size} types, ${objects.size} object values from stripe ${clientVersion} (${apiVersion}); ${unread.length} notes in unread.txt -> ${relative(repo, outDir) || '.'}`,
)
