// Copy the generated catalogue data (JSON, read lazily at run time with readFileSync from
// `./generated/` beside the catalogue's code) into the build. Called by scripts/bundle.mjs with the
// destination, which is beside the bundled file that holds the catalogue's reader.
import { cpSync, existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

const root = join(dirname(new URL(import.meta.url).pathname), '..', '..')
const from = join(root, 'src', 'catalogue', 'generated')
const to = resolve(root, process.argv[2] ?? join('dist', 'catalogue', 'generated'))
if (!existsSync(from)) throw new Error('copy-data: src/catalogue/generated is missing; run npm run catalogue')
cpSync(from, to, { recursive: true, filter: (path) => !path.endsWith('.txt') })
console.log(`copy-data: catalogue data copied to ${process.argv[2] ?? 'dist/catalogue/generated'}`)
