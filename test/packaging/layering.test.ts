import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const src = join(import.meta.dirname, '..', '..', 'src')
const aliases: Record<string, string> = {
  '#kernel/': 'kernel/',
  '#catalogue/': 'catalogue/',
  '#domain/': 'domain/',
  '#http/': 'http/',
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : name.endsWith('.ts') ? [path] : []
  })
}

/** Static imports of a file (type-only ones excluded: they vanish at runtime), resolved to src-relative paths or package names. */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const out: string[] = []
  for (const m of text.matchAll(/^(?:import|export)\s+(?!type\s)[^'"]*?from\s+'([^']+)'|^import\s+'([^']+)'/gm)) {
    const spec = (m[1] ?? m[2])!
    const alias = Object.keys(aliases).find((a) => spec.startsWith(a))
    if (alias) out.push(aliases[alias] + spec.slice(alias.length))
    else if (spec.startsWith('.')) out.push(relative(src, resolve(dirname(file), spec)))
    else out.push(`pkg:${spec}`)
  }
  return out.map((p) => p.replace(/\.js$/, '.ts'))
}

const layer = (path: string) => path.split('/')[0]!

describe('the one-way layering', () => {
  const all = files(src).map((f) => relative(src, f))

  it.each([
    ['kernel', ['catalogue', 'domain', 'http', 'harness', 'cli', 'simulator', 'adapters', 'vitest']],
    ['catalogue', ['domain', 'http', 'harness', 'cli', 'simulator', 'adapters', 'vitest']],
    ['domain', ['http', 'harness', 'cli', 'simulator', 'adapters', 'vitest']],
    ['http', ['harness', 'cli', 'simulator', 'adapters', 'vitest']],
  ])('keeps %s from importing the layers above it', (from, forbidden) => {
    const offending = all
      .filter((f) => layer(f) === from)
      .flatMap((f) => imports(join(src, f)).map((to) => `${f} -> ${to}`))
      .filter((edge) => forbidden.includes(layer(edge.split(' -> ')[1]!)))
    expect(offending).toEqual([])
  })

  it('keeps nock, msw and vitest out of the static import graph of the main entry', () => {
    const seen = new Set<string>()
    const packages = new Set<string>()
    const visit = (path: string) => {
      if (seen.has(path)) return
      seen.add(path)
      for (const to of imports(join(src, path))) {
        if (to.startsWith('pkg:')) packages.add(to.slice(4))
        else visit(to)
      }
    }
    visit('index.ts')
    expect(seen.size).toBeGreaterThan(10)
    expect([...packages].filter((p) => /^(nock|msw|vitest)(\/|$)/.test(p))).toEqual([])
  })
})
