import { readdirSync, readFileSync, statSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import pkg from '../../package.json' with { type: 'json' }
import { importOptional, MissingOptionalPackageError } from '../../src/harness/optional-package.js'

const root = join(import.meta.dirname, '..', '..')

/**
 * What a user's install brings, and why each is there. Everything else the code imports is either
 * bundled into dist/ by scripts/bundle.mjs or an optional peer loaded where it is needed.
 */
const RUNTIME_ALLOWED: Record<string, string> = {
  '@types/sinonjs__fake-timers':
    "the public Clock type is fake-timers' clock: its code is bundled, its declarations are not (32 KB, no dependencies)",
  tinypool: 'it starts its worker threads from files of its own, so it cannot be bundled',
}

/** Tools of the build, the tests and the docs: never something a user installs with the package. */
const DEV_TOOLS = [
  // Bundled into dist/chunks/zod.cjs; the public declarations are hand-written types pinned to the schemas.
  'zod',
  'tsx',
  'esbuild',
  'typescript',
  'vitest',
  '@biomejs/biome',
  'typedoc',
  'typedoc-plugin-markdown',
  '@microsoft/api-extractor',
  '@changesets/cli',
  'publint',
  '@arethetypeswrong/cli',
  'playwright-core',
  'tinybench',
  'autocannon',
  'stripe-stateful-mock',
  'vega',
]

/**
 * Peers the package may import statically, from the entry point that exists to serve them (and
 * tsx from the sources' own fuzz worker entry, which is not built into dist/).
 */
const STATIC_PEERS: Record<string, readonly string[]> = {
  'fast-check': ['src/harness/'],
  msw: ['src/adapters/msw.ts'],
  vitest: ['src/vitest/'],
  // Worker entries used only when the harness runs from its TypeScript sources.
  tsx: ['src/cli/fuzz-worker-tsx.mjs', 'src/harness/workers/worker-thread-tsx.mjs'],
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sources(path)
    return /\.(ts|mts|mjs)$/.test(name) && !name.endsWith('.d.ts') ? [path] : []
  })
}

interface PackageImport {
  readonly file: string
  readonly name: string
  readonly dynamic: boolean
}

/** The packages a source file imports at run time (type-only imports vanish and are left out). */
function packageImports(file: string): PackageImport[] {
  const text = readFileSync(file, 'utf8')
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const out: PackageImport[] = []
  const add = (spec: string, dynamic: boolean) => {
    if (spec.startsWith('.') || spec.startsWith('#') || spec.startsWith('node:') || builtinModules.includes(spec)) return
    const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string)
    out.push({ file: relative(root, file), name, dynamic })
  }
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && !node.importClause?.isTypeOnly)
      add(node.moduleSpecifier.text, false)
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    )
      add(node.arguments[0].text, true)
    ts.forEachChild(node, visit)
  }
  visit(sf)
  return out
}

const imports = sources(join(root, 'src')).flatMap(packageImports)
const dependencies = Object.keys(pkg.dependencies)
const peers = Object.keys(pkg.peerDependencies)

describe('the package dependencies', () => {
  it('lists as runtime dependencies only the allowed packages', () => {
    expect(dependencies.filter((name) => !(name in RUNTIME_ALLOWED))).toEqual([])
  })

  it('has no build, test or report tool among its dependencies', () => {
    const runtime = [...dependencies, ...Object.keys((pkg as { optionalDependencies?: object }).optionalDependencies ?? {})]
    expect(
      runtime.filter((name) => DEV_TOOLS.includes(name) || (name.startsWith('@types/') && !(name in RUNTIME_ALLOWED))),
    ).toEqual([])
    expect(runtime.filter((name) => name in pkg.devDependencies)).toEqual([])
  })

  it('marks every peer optional, so npm installs none of them with the package', () => {
    const meta = pkg.peerDependenciesMeta as Record<string, { optional?: boolean }>
    expect(peers.filter((name) => meta[name]?.optional !== true)).toEqual([])
  })

  it('imports every package it uses from a dependency, a peer, or a dev dependency the bundle takes in', () => {
    const known = new Set([...dependencies, ...peers, ...Object.keys(pkg.devDependencies)])
    expect(imports.filter((i) => !known.has(i.name)).map((i) => `${i.file}: ${i.name}`)).toEqual([])
  })

  it('loads an optional peer (vega, tsx, nock) only where a feature needs it, by a dynamic import', () => {
    const eager = imports.filter(
      (i) => peers.includes(i.name) && !i.dynamic && !(STATIC_PEERS[i.name] ?? []).some((p) => i.file.startsWith(p)),
    )
    expect(eager.map((i) => `${i.file}: ${i.name}`)).toEqual([])
  })

  it('imports no command code at the top of the CLI, so --help loads only the help text', () => {
    const main = packageImports(join(root, 'src', 'cli', 'main.ts'))
    expect(main).toEqual([])
    const text = readFileSync(join(root, 'src', 'cli', 'main.ts'), 'utf8')
    const staticLocal = [...text.matchAll(/^import [^'"]*from '(\.[^']+)'/gm)].map((m) => m[1])
    expect(staticLocal.filter((spec) => /-command\.js$/.test(spec as string))).toEqual([])
  })
})

describe('an optional package that is not installed', () => {
  it('is refused with a message naming the feature and the install line', async () => {
    const missing = importOptional(
      'service-sim-no-such-package',
      // @ts-expect-error: the package does not exist, which is the point
      () => import('service-sim-no-such-package'),
      'drawing a chart',
    )
    await expect(missing).rejects.toBeInstanceOf(MissingOptionalPackageError)
    await expect(missing).rejects.toThrow(
      "drawing a chart needs the optional package 'service-sim-no-such-package', which is not installed: npm i -D service-sim-no-such-package",
    )
  })

  it('lets any other failure of the import through as it is', async () => {
    const broken = importOptional('vega', () => Promise.reject(new SyntaxError('bad module')), 'drawing a chart')
    await expect(broken).rejects.toThrow(SyntaxError)
  })
})
