// After `tsc -p tsconfig.build.json` (declarations only; esbuild already resolved the aliases in
// the bundled .js): rewrite the package-internal import aliases (`#kernel/*`, `#domain/*`, ... from
// package.json `imports`, which point at ./src for tsx, vitest and tsc) in dist's .d.ts files into
// relative paths, so the published package needs neither ./src nor the aliases.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'

const root = join(dirname(new URL(import.meta.url).pathname), '..')
const dist = join(root, 'dist')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const aliases = Object.entries(pkg.imports ?? {}).map(([key, target]) => {
  const to = typeof target === 'string' ? target : target.default
  if (!key.endsWith('/*') || !to.startsWith('./src/') || !to.endsWith('/*')) {
    throw new Error(`rewrite-aliases: cannot map imports entry ${key} -> ${JSON.stringify(target)}`)
  }
  return { prefix: key.slice(0, -1), dir: join(dist, to.slice('./src/'.length, -1)) }
})

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : /\.(js|d\.ts)$/.test(name) ? [path] : []
  })
}

const specifier = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(#[^'"]+)\2/g
let rewritten = 0
for (const file of files(dist)) {
  const text = readFileSync(file, 'utf8')
  const next = text.replace(specifier, (whole, lead, quote, spec) => {
    const alias = aliases.find((a) => spec.startsWith(a.prefix))
    if (!alias) throw new Error(`rewrite-aliases: ${relative(root, file)} imports unknown alias ${spec}`)
    let rel = relative(dirname(file), join(alias.dir, spec.slice(alias.prefix.length))).split(sep).join('/')
    if (!rel.startsWith('.')) rel = `./${rel}`
    rewritten++
    return `${lead}${quote}${rel}${quote}`
  })
  if (next !== text) writeFileSync(file, next)
}
console.log(`rewrite-aliases: ${rewritten} specifiers rewritten in dist`)
