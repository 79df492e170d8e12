import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join, posix } from 'node:path'
import pkg from '../../package.json' with { type: 'json' }

export const root = join(import.meta.dirname, '..', '..')

/**
 * Folders the build writes into the package (absent from a checkout until `npm run build` and
 * `npm run docs:api`): a doc may name a file under them only as listed here.
 */
export const GENERATED: Record<string, readonly string[]> = {
  'docs/api/': ['docs/api/index.md'],
  'dist/': [],
}

/** Top-level folders of the repository that never ship. */
const REPO_ONLY = ['src', 'test', 'bench', 'scripts', 'properties', 'reports', 'etc', '.ci', '.changeset', 'node_modules']

/** Top-level files of the repository that never ship, named as the repository's. */
const REPO_ONLY_FILES = [
  'CONTRIBUTING.md',
  'typedoc.json',
  'api-extractor.json',
  'biome.json',
  'tsconfig.build.json',
  'vitest.config.ts',
  'package-lock.json',
]

/**
 * Paths that name the reader's own files, not the repository's: the README tells the user to
 * create the first two in their app, and the vitest fixture's failure message names the user's file.
 */
const USERS_OWN = new Set(['test/first.test.ts', 'test/webhooks.property.test.ts', 'test/billing.test.ts'])

/** The repository's address on its forge: a link there is how a shipped doc reaches a contributor doc. */
export const REPO_BLOB = `${pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '')}/blob/main/`

/** Every file `npm pack` puts in the package (without running the build). */
export function packedFiles(): string[] {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  })
  const [packed] = JSON.parse(out) as [{ files: { path: string }[] }]
  return packed.files.map((f) => f.path).filter((p) => !Object.keys(GENERATED).some((g) => p.startsWith(g)))
}

/** The markdown a user gets with the package: the README, the changelog, the guides. */
export function shippedDocs(files: readonly string[]): string[] {
  return files.filter((f) => f.endsWith('.md') && !Object.keys(GENERATED).some((g) => f.startsWith(g)))
}

/**
 * What a user reads with the package: its markdown, the documents under docs/ (the admin API's
 * OpenAPI), and the examples and bundled scenarios they copy from.
 */
export function shippedReading(files: readonly string[]): string[] {
  const read = (f: string) =>
    (f.startsWith('docs/') && f.endsWith('.yaml')) || /^(examples|scenarios)\/.*\.(ts|ya?ml|md)$/.test(f)
  return [...new Set([...shippedDocs(files), ...files.filter(read)])]
}

/** Every file the repository tracks. */
export function trackedFiles(): Set<string> {
  const out = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
  return new Set(out.split('\0').filter(Boolean))
}

export interface Mention {
  readonly doc: string
  readonly line: number
  readonly text: string
  readonly why: string
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length
}

/** A path pattern with `*` and `<placeholder>` parts, as a test over shipped file names. */
function matcher(path: string): (file: string) => boolean {
  const trimmed = path.replace(/[.:]+$/, '')
  if (trimmed.endsWith('/')) return (f) => f.startsWith(trimmed)
  if (!/[*<{]/.test(trimmed)) return (f) => f === trimmed || f.startsWith(`${trimmed}/`)
  const source = trimmed
    .split(/(\*+|<[^>]*>|\{[^}]*\})/)
    .map((part, i) => (i % 2 === 1 ? '[^/]+' : part.replace(/[.+?^$()|[\]\\]/g, '\\$&')))
    .join('')
  const re = new RegExp(`^${source}`)
  return (f) => re.test(f)
}

function isShipped(path: string, shipped: readonly string[]): boolean {
  const test = matcher(path)
  if (shipped.some(test)) return true
  const generated = Object.entries(GENERATED).find(([dir]) => path.startsWith(dir))
  return generated !== undefined && (path === generated[0] || generated[1].includes(path))
}

/** Links: relative ones must reach a shipped file, links to the repository a tracked one. */
function linkMentions(doc: string, text: string, shipped: readonly string[], tracked: Set<string>): Mention[] {
  const found: Mention[] = []
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = (m[1] ?? '').replace(/#.*$/, '')
    const line = lineOf(text, m.index)
    if (target === '' || /^(mailto|http):/.test(target)) continue
    if (target.startsWith('https://')) {
      if (target.startsWith(REPO_BLOB) && !tracked.has(target.slice(REPO_BLOB.length)))
        found.push({ doc, line, text: target, why: 'links to a file the repository does not have' })
      continue
    }
    const resolved = posix.normalize(posix.join(dirname(doc), target))
    if (!isShipped(resolved, shipped)) found.push({ doc, line, text: target, why: 'links to a file that does not ship' })
  }
  return found
}

const PATH = /(?<![\w./:@~$-])((?:\.\/)?(?:[A-Za-z0-9_.-]+\/)*[A-Za-z0-9_.*<>{}-]+(?:\/[A-Za-z0-9_.*<>{}-]*)*)/g

/** Paths in code spans and code blocks: each is either the user's own, or ships. */
function codeMentions(doc: string, text: string, shipped: readonly string[], tracked: Set<string>): Mention[] {
  const found: Mention[] = []
  const prose = text.replace(/\]\([^)\s]+\)/g, '](link)')
  for (const m of prose.matchAll(PATH)) {
    // A path into the installed package names the package's own file.
    const path = (m[1] ?? '')
      .replace(/^\.\//, '')
      .replace(/^node_modules\/service-sim\//, '')
      .replace(/[.,:;]+$/, '')
    const first = path.split('/')[0] ?? ''
    const line = lineOf(prose, m.index)
    if (USERS_OWN.has(path)) continue
    if (path.includes('/') && REPO_ONLY.includes(first)) {
      found.push({ doc, line, text: path, why: 'names a repository path that does not ship' })
    } else if (REPO_ONLY_FILES.includes(path)) {
      found.push({ doc, line, text: path, why: 'names a repository file that does not ship' })
    } else if (path.includes('/') && ['docs', 'examples', 'scenarios', 'bin', 'dist'].includes(first)) {
      if (!isShipped(path, shipped)) found.push({ doc, line, text: path, why: 'names a path that does not ship' })
    } else if (/^[\w./-]+\.md$/.test(path)) {
      // A page named by itself is the sibling of the page that names it (or a file at the root).
      const candidates = [posix.normalize(posix.join(dirname(doc), path)), path]
      if (candidates.some((c) => tracked.has(c)) && !candidates.some((c) => shipped.includes(c)))
        found.push({ doc, line, text: path, why: 'names a page that does not ship' })
    }
  }
  return found
}

/** `npm run <script>` of this package's own scripts: the user has none of them. */
function scriptMentions(doc: string, text: string): Mention[] {
  const scripts = Object.keys(pkg.scripts)
  // The README's block of commands for a clone of the repository names its scripts on purpose
  // (blanked line for line, so the other mentions keep their line numbers).
  const own = text.replace(/<!-- from a clone -->[\s\S]*?<!-- \/from a clone -->/g, (block) => block.replace(/[^\n]/g, ' '))
  return [...own.matchAll(/npm run ([\w:-]+)/g)]
    .filter((m) => scripts.includes(m[1] ?? ''))
    .map((m) => ({ doc, line: lineOf(text, m.index), text: m[0], why: "runs a script of the repository's package.json" }))
}

/** Every mention in one doc's text of something a user of the package does not have. */
export function mentionsIn(doc: string, text: string, shipped: readonly string[], tracked: Set<string>): Mention[] {
  return [
    ...linkMentions(doc, text, shipped, tracked),
    ...codeMentions(doc, text, shipped, tracked),
    ...scriptMentions(doc, text),
  ]
}

/** Every mention in the shipped docs of something a user of the package does not have. */
export function unshippedMentions(docs: readonly string[], shipped: readonly string[]): Mention[] {
  const tracked = trackedFiles()
  return docs.flatMap((doc) => mentionsIn(doc, readFileSync(join(root, doc), 'utf8'), shipped, tracked))
}

/** A mention as one line of a failure message. */
export function describeMention(m: Mention): string {
  return `${m.doc}:${m.line} ${m.why}: ${m.text}`
}
