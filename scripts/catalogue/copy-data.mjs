// After `tsc -p tsconfig.build.json`: copy the generated catalogue data (JSON, read lazily at run
// time with readFileSync beside src/catalogue/index.js) into dist, which tsc does not do.
import { cpSync, existsSync } from 'node:fs'
import { dirname, join } from 'node:path'

const root = join(dirname(new URL(import.meta.url).pathname), '..', '..')
const from = join(root, 'src', 'catalogue', 'generated')
const to = join(root, 'dist', 'catalogue', 'generated')
if (!existsSync(from)) throw new Error('copy-data: src/catalogue/generated is missing; run npm run catalogue')
cpSync(from, to, { recursive: true, filter: (path) => !path.endsWith('.txt') })
console.log('copy-data: catalogue data copied to dist/catalogue/generated')
