import { readdirSync, readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/**
 * The size rules of the architecture: a function past 80 lines or a file past 400 is a room that
 * wants splitting, and a file name means one thing across `src/`. Generated catalogue data is
 * exempt: it is written by a script, not read as code.
 */
const src = join(import.meta.dirname, '..', '..', 'src')
const MAX_FUNCTION_LINES = 80
const MAX_FILE_LINES = 400
/** Names every folder may have: its index and its README. */
const SHARED_NAMES = new Set(['index.ts', 'README.md'])

const sources = (readdirSync(src, { recursive: true }) as string[])
  .filter((f) => /\.(ts|mts)$/.test(f) && !f.split('/').includes('generated'))
  .sort()

function lineCount(text: string): number {
  return text.replace(/\n$/, '').split('\n').length
}

/** Every function of a source text (declarations, expressions, arrows, methods, accessors) longer than `max` lines. */
function longFunctions(text: string, file: string, max = MAX_FUNCTION_LINES): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const out: string[] = []
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line
      const end = source.getLineAndCharacterOfPosition(node.end).line
      if (end - start + 1 > max) out.push(`${file}:${start + 1} ${nameOf(node, source)} (${end - start + 1} lines)`)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return out
}

function nameOf(node: ts.Node, source: ts.SourceFile): string {
  const named = node as { name?: ts.Node }
  if (named.name !== undefined) return named.name.getText(source)
  const parent = node.parent
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText(source)
  return '<anonymous>'
}

describe('the shape of the code', () => {
  const texts = new Map(sources.map((f) => [f, readFileSync(join(src, f), 'utf8')]))

  it(`has no function over ${MAX_FUNCTION_LINES} lines outside generated data`, () => {
    expect([...texts].flatMap(([f, text]) => longFunctions(text, f))).toEqual([])
  })

  it(`has no source file over ${MAX_FILE_LINES} lines outside generated data`, () => {
    const big = [...texts].filter(([, text]) => lineCount(text) > MAX_FILE_LINES).map(([f, t]) => `${f} (${lineCount(t)})`)
    expect(big).toEqual([])
  })

  it('gives no two files of src the same name', () => {
    const all = (readdirSync(src, { recursive: true }) as string[]).filter((f) => /\.(ts|mts|mjs|md)$/.test(f))
    const byName = new Map<string, string[]>()
    for (const f of all.filter((f) => !SHARED_NAMES.has(basename(f)))) {
      byName.set(basename(f), [...(byName.get(basename(f)) ?? []), f])
    }
    expect(
      [...byName].filter(([, places]) => places.length > 1).map(([name, places]) => `${name}: ${places.join(', ')}`),
    ).toEqual([])
  })

  it('measures what it claims: a long arrow, method and closure are each found, a short one is not', () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i}`).join('\n')
    const text = [
      `export function short() {\n${body(3)}\n}`,
      `export const arrow = () => {\n${body(85)}\n}`,
      `class K {\n  method() {\n${body(90)}\n  }\n}`,
      `export function outer() {\n  const inner = () => 1\n${body(100)}\n}`,
    ].join('\n')
    expect(longFunctions(text, 'x.ts').map((l) => l.split(' ')[1])).toEqual(['arrow', 'method', 'outer'])
  })
})
