// The first step of `npm run build` (tsc then writes only the declaration files beside): empty
// dist, then bundle src into it with esbuild, ESM, split into shared chunks over the package's
// entry points. A fresh process importing the package then loads a dozen files instead of ~190
// modules, which saved a cold import 60-80 ms of CPU (see reports/bench/cold-start.md).
//
// Only the package's `dependencies` and `peerDependencies` stay external: every other package the
// code imports (qs, the fake timers, seedrandom's alea, yaml) is bundled in, so it is neither
// installed beside the package nor resolved module by module at a cold start. Their licences go
// to dist/THIRD-PARTY-NOTICES.md. A dependency stays external when it loads files of its own by
// path (tinypool) or when a user's code shares its instances (the peers); zod is a dev dependency,
// bundled lazily (below), and the public declarations name hand-written types instead of its own.
//
// Code that finds files beside itself by `import.meta.url` must land where its relative paths
// still hold, so this script checks the placement of those modules from esbuild's metafile and
// stops the build if a future change of the module graph moves them.
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { basename, dirname, join, relative } from 'node:path'
import { build } from 'esbuild'
import { DASHBOARD_MODULE, dashboardModule } from './bundle-dashboard.mjs'

const root = join(dirname(new URL(import.meta.url).pathname), '..')
// A module bundled away must not stay answerable at its old path from an earlier build.
rmSync(join(root, 'dist'), { recursive: true, force: true })
// The dashboard's browser code (with its UI library) first: serve's bundle below takes it in as text.
writeFileSync(DASHBOARD_MODULE, await dashboardModule())
/** The packages inside the dashboard's browser bundle, for the notices. */
const dashboardPackages = ['htm', 'preact']

/**
 * Every file the package loads by path: the exports map's targets, the CLI's entry
 * (bin/service-sim.js imports dist/cli/main.js), the fuzz worker that tinypool loads by file name,
 * the property checks' worker thread and the lanes that start it from beside it (imported when a
 * check asks for workers),
 * and the CLI's commands, which main.ts imports when one runs (as entries they stay in dist/cli,
 * where the fuzz command finds its worker beside itself).
 */
const entryPoints = [
  'src/index.ts',
  'src/harness/index.ts',
  'src/vitest/index.ts',
  'src/adapters/msw.ts',
  'src/cli/dashboard/open-dashboard.ts',
  'src/cli/main.ts',
  'src/cli/fuzz-worker.ts',
  'src/harness/workers/worker-lanes.ts',
  'src/harness/workers/worker-thread.ts',
  'src/cli/replay-command.ts',
  'src/cli/fuzz-command.ts',
  'src/cli/merge-command.ts',
  'src/cli/serve-command.ts',
]

/**
 * Modules that read files relative to their own URL, and the directory of dist/ their output must
 * be in: the CLI finds the package root two levels up and the fuzz worker beside itself. The
 * catalogue's data is instead copied to wherever its reader lands.
 */
const placed = {
  'src/cli/paths.ts': ['dist/cli', 'dist/chunks'],
  'src/cli/fuzz-command.ts': ['dist/cli'],
  'src/harness/workers/worker-lanes.ts': ['dist/harness/workers'],
}

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
/** Package names left to node's resolution: the declared dependencies and peers, with their subpaths. */
const external = [...Object.keys(pkg.dependencies ?? {}).filter((n) => n !== 'zod'), ...Object.keys(pkg.peerDependencies ?? {})].flatMap((name) => [
  name,
  `${name}/*`,
])

/**
 * zod's classic API re-exports all of its ~50 message locales (`z.locales`), some 300 KB that a
 * cold start would compile; the package uses only English, which zod configures itself. This
 * answers zod's locales index with English alone.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
        ? {
            // Relative to the root: the path shows in the output's comments.
            path: relative(root, join(dirname(args.importer), args.path.replace(/index\.js$/, 'en.js'))),
            namespace: 'zod-locales',
          }
        : undefined,
    )
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(`./${basename(args.path)}`)}`,
      resolveDir: join(root, dirname(args.path)),
    }))
  },
}

/**
 * zod, loaded when a schema is first used rather than when the package loads: every `import { z }
 * from 'zod'` of the package gets `z` from this small module, which requires zod's code (bundled on
 * its own into dist/chunks/zod.cjs by the second build below) on the first property read. The
 * simulator's option, fault and limit schemas are built on first use, so a cold start that creates
 * a simulator with plain options never compiles zod. Node's own `require` keeps the load
 * synchronous, as the schema users are.
 */
const lazyZod = {
  name: 'lazy-zod',
  setup(b) {
    b.onResolve({ filter: /^zod$/ }, (args) =>
      args.importer.includes('node_modules') ? undefined : { path: 'zod', namespace: 'lazy-zod' },
    )
    b.onLoad({ filter: /.*/, namespace: 'lazy-zod' }, () => ({
      contents: [
        "import { createRequire } from 'node:module'",
        'let zod',
        "const load = () => (zod ??= createRequire(import.meta.url)('./zod.cjs').z)",
        'export const z = new Proxy({}, {',
        '  get: (_, key) => load()[key],',
        '  has: (_, key) => key in load(),',
        '  ownKeys: () => Reflect.ownKeys(load()),',
        '  getOwnPropertyDescriptor: (_, key) => {',
        '    const d = Reflect.getOwnPropertyDescriptor(load(), key)',
        '    return d && { ...d, configurable: true }',
        '  },',
        '})',
      ].join('\n'),
      resolveDir: root,
    }))
  },
}

const result = await build({
  absWorkingDir: root,
  entryPoints,
  outdir: 'dist',
  outbase: 'src',
  entryNames: '[dir]/[name]',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: [...external, ...builtinModules, 'node:*'],
  // Bundled CommonJS packages require node's built-ins (qs's object-inspect needs `util`): give
  // ESM output the `require` they call.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  plugins: [lazyZod, zodEnglishOnly],
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
  // Module paths land in the output's comments: keep them as `node_modules/...` even where
  // node_modules is a link elsewhere, so no path of the build machine ships.
  preserveSymlinks: true,
})

/** The output file (relative to the package root) that holds a given source module. */
function outputOf(source) {
  const found = Object.entries(result.metafile.outputs).filter(([, out]) => source in out.inputs)
  if (found.length !== 1) throw new Error(`bundle: ${source} is in ${found.length} outputs, expected one`)
  return found[0][0]
}

for (const [source, dirs] of Object.entries(placed)) {
  const dir = dirname(outputOf(source))
  if (!dirs.includes(dir)) {
    throw new Error(`bundle: ${source} landed in ${dir}, but it reads files relative to itself from ${dirs.join(' or ')}`)
  }
}

// The catalogue reads its generated data from `./generated/` beside itself: put it there.
const catalogueDir = dirname(outputOf('src/catalogue/index.ts'))
execFileSync(process.execPath, [join(root, 'scripts', 'catalogue', 'copy-data.mjs'), join(catalogueDir, 'generated')], {
  cwd: root,
  stdio: 'inherit',
})
// zod's code on its own, beside the lazy module that requires it (checked here to be in dist/chunks).
const lazyZodOutput = Object.entries(result.metafile.outputs).find(([, out]) => 'lazy-zod:zod' in out.inputs)?.[0]
if (lazyZodOutput !== undefined && dirname(lazyZodOutput) !== 'dist/chunks') {
  throw new Error(`bundle: the lazy zod module landed in ${lazyZodOutput}, but it requires ./zod.cjs from dist/chunks`)
}
const zodBuild = await build({
  absWorkingDir: root,
  stdin: { contents: "export { z } from 'zod'", resolveDir: root, sourcefile: 'zod-entry.js' },
  outfile: 'dist/chunks/zod.cjs',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  plugins: [zodEnglishOnly],
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
  // Module paths land in the output's comments: keep them as `node_modules/...` even where
  // node_modules is a link elsewhere, so no path of the build machine ships.
  preserveSymlinks: true,
})

// The packages bundled in, each with its licence text, as their licences ask of a redistribution.
const bundled = new Map()
for (const input of [...Object.keys(result.metafile.inputs), ...Object.keys(zodBuild.metafile.inputs)]) {
  const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)
  if (match && !bundled.has(match[1])) bundled.set(match[1], join(root, input.slice(0, match.index + match[0].length)))
}
for (const name of dashboardPackages) bundled.set(name, join(root, 'node_modules', name))
const notices = [...bundled]
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([name, dir]) => {
    const meta = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
    const file = readdirSync(dir).find((f) => /^licen[cs]e/i.test(f))
    const text = file ? readFileSync(join(dir, file), 'utf8').trim() : `${meta.license} (no licence file in the package)`
    return `## ${name} ${meta.version} (${meta.license})\n\n${text}\n`
  })
writeFileSync(
  join(root, 'dist', 'THIRD-PARTY-NOTICES.md'),
  `# Third-party notices\n\nThese packages are bundled into dist/ by the build.\n\n${notices.join('\n')}`,
)
const outputs = Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js'))
console.log(
  `bundle: ${entryPoints.length} entry points, ${outputs.length} files in dist; bundled ${[...bundled.keys()].join(', ') || 'no package'}`,
)
