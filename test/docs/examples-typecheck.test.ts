import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { packedFiles, shippedDocs } from './shipped-docs.js'

const root = join(import.meta.dirname, '..', '..')
const out = join(root, 'test', '.generated', 'typecheck')

/** Every doc the package ships: each of its TypeScript blocks is a complete module a reader copies. */
const DOCS = shippedDocs(packedFiles())

interface Example {
  readonly name: string
  /** The module's file under its page's folder, when a block names it (`// my-mirror.ts`) so another block can import it. */
  readonly file?: string
  readonly where: string
  readonly source: string
}

/** The ```ts blocks of a page (most also run), and its ```typescript blocks (type-checked only: they declare tests of their own). */
function markdownBlocks(file: string, name: string): Example[] {
  const text = readFileSync(join(root, file), 'utf8')
  return [...text.matchAll(/```(?:ts|typescript|tsx)\n([\s\S]*?)```/g)].map((m, i) => {
    const source = m[1] ?? ''
    const named = /^\/\/ ([a-z0-9-]+(?:\.test)?\.ts)\b/.exec(source)?.[1]
    return {
      name: `${name}-${i + 1}`,
      where: `${file} block ${i + 1} (line ${text.slice(0, m.index).split('\n').length})`,
      source,
      ...(named === undefined ? {} : { file: join(name, named) }),
    }
  })
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const path = join(dir, f)
    return statSync(path).isDirectory() ? sourceFiles(path) : f.endsWith('.ts') ? [path] : []
  })
}

/**
 * TSDoc `@example` blocks written for users: those that import the package by its public name are
 * complete modules a reader copies, so they must compile as written.
 */
function tsdocExamples(): Example[] {
  const found: Example[] = []
  for (const file of sourceFiles(join(root, 'src'))) {
    const text = readFileSync(file, 'utf8')
    for (const m of text.matchAll(/@example\n((?:\s*\*(?!\/).*\n)+?)\s*\*(?:\/|\s*@|\s*\n\s*\*\/)/g)) {
      const body = (m[1] ?? '').replace(/^\s*\* ?/gm, '')
      if (!/^import .* from 'service-sim(\/[a-z]+)?'/m.test(body)) continue
      const line = text.slice(0, m.index).split('\n').length
      const rel = relative(root, file)
      found.push({ name: `${rel.replace(/[/.]/g, '_')}-${line}`, where: `${rel}:${line} @example`, source: body })
    }
  }
  return found
}

function docExamples(): Example[] {
  return DOCS.flatMap((doc) => markdownBlocks(doc, doc.replace(/[/.]/g, '_')))
}

function diagnose(examples: readonly Example[]): string[] {
  rmSync(out, { recursive: true, force: true })
  mkdirSync(out, { recursive: true })
  const files = new Map<string, Example>()
  for (const e of examples) {
    const file = join(out, e.file ?? `${e.name}.ts`)
    mkdirSync(join(file, '..'), { recursive: true })
    writeFileSync(file, `${e.source}\nexport {}\n`)
    files.set(file, e)
  }
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile)
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root)
  const program = ts.createProgram([...files.keys()], { ...parsed.options, noEmit: true })
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file !== undefined && files.has(d.file.fileName))
    .map((d) => {
      const e = files.get(d.file!.fileName)!
      const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0)
      return `${e.where}, its line ${line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`
    })
}

describe('documented examples type-check as written', () => {
  it('finds the examples: every shipped doc (the README and the guides) and the public TSDoc examples', () => {
    expect(DOCS).toEqual(expect.arrayContaining(['README.md', 'docs/serve.md', 'docs/getting-started.md']))
    expect(docExamples().length).toBeGreaterThan(40)
    expect(docExamples().filter((e) => e.name.startsWith('README')).length).toBeGreaterThanOrEqual(4)
    expect(tsdocExamples().map((e) => e.where)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^src\/vitest\/index\.ts/),
        expect.stringMatching(/^src\/adapters\/msw\.ts/),
      ]),
    )
  })

  it('compiles every TypeScript block of the shipped docs, and every public TSDoc example, under strict TypeScript', () => {
    // The sleep the guides describe in prose ("sleep with env.clock.setTimeout"), with a promise's resolve.
    const sleep: Example = {
      name: 'clock-sleep',
      where: 'the documented sleep on the virtual clock',
      source:
        "import { createSimulator } from 'service-sim'\nconst sim = createSimulator()\nawait new Promise<void>((resolve) => sim.clock.setTimeout(resolve, 1_000))\n",
    }
    const examples = [...docExamples(), ...tsdocExamples(), sleep]
    expect(diagnose(examples)).toEqual([])
  }, 120_000)

  it('reports a block that does not compile, naming where it is', () => {
    const errors = diagnose([{ name: 'broken', where: 'docs/x.md block 1', source: "import { it } from 'vitest'\nit(1)\n" }])
    expect(errors[0]).toMatch(/^docs\/x\.md block 1, its line 2: /)
  }, 60_000)
})
