// The last step of `npm run build`: keep in dist/ only the declaration files a user's TypeScript can
// reach, from the `types` of the package's exports through their relative imports; delete the rest.
// tsc declares every source module, the CLI's and the admin API's included, and those internal ones
// name zod, which a user's install does not have: shipping them would only invite a consumer (or a
// tool that checks every .d.ts) to fail on a package that is not there.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'

const root = join(dirname(new URL(import.meta.url).pathname), '..')
const dist = join(root, 'dist')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))

const entries = Object.values(pkg.exports)
  .map((target) => (typeof target === 'object' ? target.types : undefined))
  .filter((types) => typeof types === 'string')
  .map((types) => join(root, types))

/** The declaration file a relative specifier of `from` names (`./x.js` is `./x.d.ts` or `./x/index.d.ts`). */
function resolve(from, spec) {
  const base = join(dirname(from), spec)
  for (const candidate of [base.replace(/\.js$/, '.d.ts'), `${base}.d.ts`, join(base, 'index.d.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate
  }
  throw new Error(`prune-declarations: ${relative(root, from)} imports ${spec}, which has no declaration file`)
}

// Static imports and exports, and `import('...')` types; TSDoc examples only ever name the package.
const specifier = /(?:\bfrom\s*|\bimport\s*\(\s*|^import\s+)(['"])(\.{1,2}\/[^'"]+)\1/gm
const reached = new Set()
const stack = [...entries]
while (stack.length > 0) {
  const file = stack.pop()
  if (reached.has(file)) continue
  reached.add(file)
  for (const match of readFileSync(file, 'utf8').matchAll(specifier)) stack.push(resolve(file, match[2]))
}

function declarations(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? declarations(path) : name.endsWith('.d.ts') ? [path] : []
  })
}

let pruned = 0
for (const file of declarations(dist)) {
  if (reached.has(file)) continue
  rmSync(file)
  pruned++
}
// A folder that held declarations only goes too.
function removeEmpty(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) removeEmpty(path)
  }
  if (dir !== dist && readdirSync(dir).length === 0) rmSync(dir, { recursive: true })
}
removeEmpty(dist)
console.log(`prune-declarations: ${reached.size} declaration files reachable from the exports kept, ${pruned} internal ones removed`)
