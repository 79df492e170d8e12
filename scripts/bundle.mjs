// The first step of `npm run build` (tsc then writes only the declaration files beside): empty
// dist, then bundle src into it with esbuild, ESM, split into shared chunks over the package's
// entry points, dependencies left external. A fresh process importing the package then loads a
// dozen files instead of ~190 modules, which saved a cold import 60-80 ms of CPU (see
// reports/bench/cold-start.md).
//
// Code that finds files beside itself by `import.meta.url` must land where its relative paths
// still hold, so this script checks the placement of those modules from esbuild's metafile and
// stops the build if a future change of the module graph moves them.
import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { build } from 'esbuild'

const root = join(dirname(new URL(import.meta.url).pathname), '..')
// A module bundled away must not stay answerable at its old path from an earlier build.
rmSync(join(root, 'dist'), { recursive: true, force: true })

/**
 * Every file the package loads by path: the exports map's targets, the CLI's entry
 * (bin/service-sim.js imports dist/cli/main.js) and the fuzz worker that tinypool loads by file name.
 */
const entryPoints = [
  'src/index.ts',
  'src/harness/index.ts',
  'src/vitest/index.ts',
  'src/adapters/msw.ts',
  'src/cli/main.ts',
  'src/cli/fuzz-worker.ts',
]

/**
 * Modules that read files relative to their own URL, and the directory of dist/ their output must
 * be in: the CLI finds the package root two levels up and the fuzz worker beside itself. The
 * catalogue's data is instead copied to wherever its reader lands.
 */
const placed = {
  'src/cli/paths.ts': ['dist/cli', 'dist/chunks'],
  'src/cli/fuzz-command.ts': ['dist/cli'],
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
  packages: 'external',
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
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
const outputs = Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js'))
console.log(`bundle: ${entryPoints.length} entry points, ${outputs.length} files in dist`)
