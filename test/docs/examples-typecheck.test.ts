import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const out = join(root, 'test', '.generated', 'typecheck')

/** The guides whose every ```ts block is a complete module (the tour's blocks continue one another). */
const GUIDES = [
  'metering',
  'delivery',
  'limits',
  'accounts-and-payments',
  'resource-engine',
  'billing',
  'faults-and-properties',
  'rules',
  'apps',
]

interface Example {
  readonly name: string
  readonly where: string
  readonly source: string
}

/** The ```ts blocks of a page (they also run), and its ```typescript blocks (type-checked only: they declare tests of their own). */
function markdownBlocks(file: string, name: string): Example[] {
  const text = readFileSync(join(root, file), 'utf8')
  const fence = file.endsWith('resource-engine.md') ? /```ts\n([\s\S]*?)```/g : /```(?:ts|typescript)\n([\s\S]*?)```/g
  return [...text.matchAll(fence)].map((m, i) => ({
    name: `${name}-${i + 1}`,
    where: `${file} block ${i + 1} (line ${text.slice(0, m.index).split('\n').length})`,
    source: m[1] ?? '',
  }))
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

function readmeExamples(): Example[] {
  return markdownBlocks('README.md', 'readme')
}

function diagnose(examples: readonly Example[]): string[] {
  rmSync(out, { recursive: true, force: true })
  mkdirSync(out, { recursive: true })
  const files = new Map<string, Example>()
  for (const e of examples) {
    const file = join(out, `${e.name}.ts`)
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
  it('finds the examples: every guide, the README and the public TSDoc examples', () => {
    expect(GUIDES.flatMap((g) => markdownBlocks(`docs/${g}.md`, g)).length).toBeGreaterThan(20)
    expect(readmeExamples().length).toBeGreaterThanOrEqual(4)
    expect(tsdocExamples().map((e) => e.where)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^src\/vitest\/index\.ts/),
        expect.stringMatching(/^src\/adapters\/msw\.ts/),
      ]),
    )
  })

  it('compiles every ```ts block of the guides and the README, and every public TSDoc example, under strict TypeScript', () => {
    // The sleep the guides describe in prose ("sleep with env.clock.setTimeout"), with a promise's resolve.
    const sleep: Example = {
      name: 'clock-sleep',
      where: 'the documented sleep on the virtual clock',
      source:
        "import { createSimulator } from 'service-sim'\nconst sim = createSimulator()\nawait new Promise<void>((resolve) => sim.clock.setTimeout(resolve, 1_000))\n",
    }
    const examples = [...GUIDES.flatMap((g) => markdownBlocks(`docs/${g}.md`, g)), ...readmeExamples(), ...tsdocExamples(), sleep]
    expect(diagnose(examples)).toEqual([])
  }, 120_000)

  it('reports a block that does not compile, naming where it is', () => {
    const errors = diagnose([{ name: 'broken', where: 'docs/x.md block 1', source: "import { it } from 'vitest'\nit(1)\n" }])
    expect(errors[0]).toMatch(/^docs\/x\.md block 1, its line 2: /)
  }, 60_000)
})
