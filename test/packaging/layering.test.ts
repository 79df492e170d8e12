import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import pkg from '../../package.json' with { type: 'json' }

const src = join(import.meta.dirname, '..', '..', 'src')

/** `#kernel/` -> `kernel/`, ... from package.json `imports` (the aliases the layers import each other by). */
const aliases: Record<string, string> = Object.fromEntries(
  Object.entries(pkg.imports).map(([key, target]) => [key.slice(0, -1), target.slice('./src/'.length, -1)]),
)

/**
 * The layers, lowest first, and what each may import besides itself (type imports included). A
 * layer is the first directory under src, or a top-level file (`index.ts`).
 *
 * - `adapters` (nock interception, msw handlers, running a client on the clock) sit beside the
 *   kernel: they need only the kernel, and the simulator composes them (`sim.intercept()`).
 * - `index.ts` is the public entry of the simulator layer: it re-exports the layers below.
 * - `vitest` (the fixture) sits above the simulator, beside the harness, and does not need it.
 */
const below = {
  kernel: [],
  catalogue: ['kernel'],
  domain: ['kernel', 'catalogue'],
  http: ['kernel', 'catalogue', 'domain'],
  faults: ['kernel', 'catalogue', 'domain', 'http'],
  adapters: ['kernel'],
  simulator: ['kernel', 'catalogue', 'domain', 'http', 'faults', 'adapters'],
  'index.ts': ['kernel', 'catalogue', 'domain', 'http', 'faults', 'adapters', 'simulator'],
  vitest: ['kernel', 'catalogue', 'domain', 'http', 'faults', 'adapters', 'simulator', 'index.ts'],
  harness: ['kernel', 'catalogue', 'domain', 'http', 'faults', 'adapters', 'simulator', 'index.ts'],
  cli: ['kernel', 'catalogue', 'domain', 'http', 'faults', 'adapters', 'simulator', 'index.ts', 'harness'],
} as const satisfies Record<string, readonly string[]>
type Layer = keyof typeof below

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : /\.(ts|mts|mjs|js)$/.test(name) ? [path] : []
  })
}

interface Edge {
  readonly spec: string
  /** src-relative path, or `pkg:name` for a package. */
  readonly to: string
  /** True when it vanishes at runtime (`import type`, `export type`, `import('x').T`). */
  readonly typeOnly: boolean
  /** `import()`: loaded on demand, not part of the static graph. */
  readonly dynamic: boolean
}

/**
 * Every module specifier of a source text, read with the TypeScript parser: static imports and
 * re-exports (type-only ones included), `import x = require()`, dynamic `import()`, `import('x').T`
 * type queries, and `declare module` augmentations.
 */
function importsOf(text: string, file: string): Edge[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const out: Edge[] = []
  const add = (literal: ts.Expression | undefined, typeOnly: boolean, dynamic = false) => {
    if (literal === undefined || !ts.isStringLiteralLike(literal)) return
    const spec = literal.text
    const alias = Object.keys(aliases).find((a) => spec.startsWith(a))
    let to: string
    if (alias) to = aliases[alias] + spec.slice(alias.length)
    else if (spec.startsWith('.')) to = relative(src, resolve(dirname(file), spec))
    else to = `pkg:${spec}`
    out.push({ spec, to: to.replace(/\.js$/, '.ts'), typeOnly, dynamic })
  }
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      // `import { type X }` stays at runtime as `import {} from` under verbatimModuleSyntax.
      add(node.moduleSpecifier, node.importClause?.isTypeOnly === true)
    } else if (ts.isExportDeclaration(node)) {
      add(node.moduleSpecifier, node.isTypeOnly)
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly)
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], false, true)
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, true)
    } else if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)) {
      add(node.name, true)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return out
}

const layerOf = (path: string): string => path.split('/')[0]!

/** The edges from `file` (src-relative) to a layer it may not import. */
function violations(file: string, edges: readonly Edge[]): string[] {
  const from = layerOf(file)
  if (!(from in below)) return [`${file}: not in any layer (add its directory to the table)`]
  const allowed: readonly string[] = [from, ...below[from as Layer]]
  return edges
    .filter((e) => !e.to.startsWith('pkg:') && !allowed.includes(layerOf(e.to)))
    .map((e) => `${file} -> ${e.to}${e.typeOnly ? ' (type)' : ''}`)
}

describe('the one-way layering', () => {
  const all = files(src).map((f) => relative(src, f))
  const edges = new Map(all.map((f) => [f, importsOf(readFileSync(join(src, f), 'utf8'), join(src, f))]))

  it('places every file of src in a layer', () => {
    expect(all.filter((f) => !(layerOf(f) in below))).toEqual([])
  })

  it.each(Object.keys(below))('keeps %s from importing the layers above it (type imports included)', (from) => {
    const offending = all.filter((f) => layerOf(f) === from).flatMap((f) => violations(f, edges.get(f)!))
    expect(offending).toEqual([])
  })

  it('keeps the package-internal aliases resolving to a layer', () => {
    for (const dir of Object.values(aliases)) expect(Object.keys(below)).toContain(dir.replace(/\/$/, ''))
  })

  it('sees every import form, and fails on a lower layer importing a higher one', () => {
    const file = join(src, 'domain', 'example.ts')
    const text = [
      "import { a } from '#kernel/time.js'",
      "import type { B } from '#harness/index.js'",
      "import { type C } from '../simulator/create-simulator.js'",
      "export { D } from '#faults/fault-log.js'",
      "export type { E } from '../http/handler.js'",
      "export * from '../cli/main.js'",
      "const f = await import('#harness/campaign.js')",
      "let g: import('../faults/fault-policy.js').FaultsInput",
      "import h = require('../adapters/msw.js')",
      "declare module '#simulator/admin.js' {}",
      "import '../harness/properties.js'",
      "import { i } from './service.js'",
      "import { z } from 'zod'",
    ].join('\n')
    const found = importsOf(text, file)
    expect(found.map((e) => e.to)).toEqual([
      'kernel/time.ts',
      'harness/index.ts',
      'simulator/create-simulator.ts',
      'faults/fault-log.ts',
      'http/handler.ts',
      'cli/main.ts',
      'harness/campaign.ts',
      'faults/fault-policy.ts',
      'adapters/msw.ts',
      'simulator/admin.ts',
      'harness/properties.ts',
      'domain/service.ts',
      'pkg:zod',
    ])
    expect(found.filter((e) => e.typeOnly).map((e) => e.spec)).toEqual([
      '#harness/index.js',
      '../http/handler.js',
      '../faults/fault-policy.js',
      '#simulator/admin.js',
    ])
    expect(violations('domain/example.ts', found)).toEqual([
      'domain/example.ts -> harness/index.ts (type)',
      'domain/example.ts -> simulator/create-simulator.ts',
      'domain/example.ts -> faults/fault-log.ts',
      'domain/example.ts -> http/handler.ts (type)',
      'domain/example.ts -> cli/main.ts',
      'domain/example.ts -> harness/campaign.ts',
      'domain/example.ts -> faults/fault-policy.ts (type)',
      'domain/example.ts -> adapters/msw.ts',
      'domain/example.ts -> simulator/admin.ts (type)',
      'domain/example.ts -> harness/properties.ts',
    ])
    expect(found.filter((e) => e.dynamic).map((e) => e.spec)).toEqual(['#harness/campaign.js'])
    expect(violations('harness/example.ts', importsOf("import { x } from '#domain/service.js'", file))).toEqual([])
    expect(violations('simulator/example.ts', importsOf("import type { X } from '#harness/index.js'", file))).toEqual([
      'simulator/example.ts -> harness/index.ts (type)',
    ])
    expect(violations('nowhere/example.ts', [])).toEqual([
      'nowhere/example.ts: not in any layer (add its directory to the table)',
    ])
  })

  it('reaches another layer only through its alias, never a relative path', () => {
    const relative = all.flatMap((f) =>
      edges
        .get(f)!
        .filter((e) => e.spec.startsWith('.') && layerOf(e.to) !== layerOf(f))
        .map((e) => `${f} -> ${e.spec}`),
    )
    expect(relative).toEqual([])
  })

  it('lets the harness, the fixture and the CLI use a lower layer only through its index', () => {
    const upper: Record<string, readonly string[]> = { harness: ['harness'], vitest: ['vitest'], cli: ['cli', 'harness'] }
    const reaching = all.flatMap((f) => {
      const own = upper[layerOf(f)]
      if (own === undefined) return []
      return edges
        .get(f)!
        .filter((e) => !e.to.startsWith('pkg:') && !own.includes(layerOf(e.to)) && e.to !== `${layerOf(e.to)}/index.ts`)
        .map((e) => `${f} -> ${e.spec}`)
    })
    expect(reaching).toEqual([])
  })

  it('keeps each folder of the domain a concept, not a room of one file', () => {
    const folders = new Map<string, number>()
    for (const f of all.filter((f) => f.startsWith('domain/') && f.split('/').length > 2)) {
      const dir = dirname(f)
      folders.set(dir, (folders.get(dir) ?? 0) + 1)
    }
    expect([...folders].filter(([, count]) => count < 2).map(([dir]) => dir)).toEqual([])
  })

  it('keeps nock, msw and vitest out of the static import graph of the main entry', () => {
    const seen = new Set<string>()
    const packages = new Set<string>()
    const visit = (path: string) => {
      if (seen.has(path)) return
      seen.add(path)
      // Runtime imports only: type imports vanish, and dynamic ones load on demand.
      for (const e of edges.get(path)!.filter((e) => !e.typeOnly && !e.dynamic)) {
        if (e.to.startsWith('pkg:')) packages.add(e.to.slice(4))
        else visit(e.to)
      }
    }
    visit('index.ts')
    expect(seen.size).toBeGreaterThan(10)
    expect([...packages].filter((p) => /^(nock|msw|vitest)(\/|$)/.test(p))).toEqual([])
  })
})
