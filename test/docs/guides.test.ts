import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const out = join(root, 'test', '.generated', 'docs')

/** The per-capability guides: every ```ts block is a self-contained module that must run as written. */
const GUIDES = [
  'metering',
  'delivery',
  'limits',
  'accounts-and-payments',
  'resource-engine',
  'billing',
  'faults-and-properties',
  'rules',
  'flow-adversity',
  'customer',
  'clock',
  'apps',
] as const

/**
 * docs/getting-started.md's blocks are complete modules too, but its vitest block declares a test
 * of its own (it cannot run inside this one); test/adapters/vitest-fixture.test.ts covers that fixture.
 */
const declaresATest = (source: string): boolean => source.includes("from 'service-sim/vitest'")

function tsBlocks(guide: string): string[] {
  const file = join(root, 'docs', `${guide}.md`)
  if (!existsSync(file)) return []
  return [...readFileSync(file, 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? '')
}

async function run(name: string, guide: string, source: string): Promise<void> {
  mkdirSync(out, { recursive: true })
  const file = join(out, `${name}.ts`)
  writeFileSync(file, `// Generated from docs/${guide}.md by test/docs/guides.test.ts\n${source}\nexport {}\n`)
  // Assertions inside the block (node:assert) throw, and a throw fails the calling test.
  await import(/* @vite-ignore */ `${file}?run=1`)
}

describe('docs guides', () => {
  for (const guide of GUIDES) {
    const code = tsBlocks(guide)
    it(`docs/${guide}.md exists and has at least two runnable examples`, () => {
      expect(existsSync(join(root, 'docs', `${guide}.md`))).toBe(true)
      expect(code.length).toBeGreaterThanOrEqual(2)
    })
    code.forEach((source, i) => {
      it(`runs example ${i + 1} of docs/${guide}.md as written`, () => run(`${guide}-${i + 1}`, guide, source))
    })
  }

  tsBlocks('getting-started').forEach((source, i) => {
    const n = i + 1
    it.skipIf(declaresATest(source))(`runs block ${n} of docs/getting-started.md as written`, () =>
      run(`getting-started-${n}`, 'getting-started', source),
    )
  })
})
