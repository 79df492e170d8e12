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
  'customer',
  'apps',
] as const

/**
 * docs/getting-started.md is a tour whose blocks continue one another, so each gets the context
 * the earlier prose set up. Its vitest block declares a test of its own (it cannot run inside this
 * one); test/adapters/vitest-fixture.test.ts covers that fixture.
 */
const TOUR_CONTEXT: Record<number, string | null> = {
  2: `import { createSimulator } from 'service-sim'\n`,
  3: [
    `import Stripe from 'stripe'`,
    `import { createSimulator } from 'service-sim'`,
    `const sim = createSimulator({ seed: 42, headerPrefix: 'Stripe' })`,
    `const stripe = new Stripe(sim.platform.secretKey.test, { httpClient: Stripe.createFetchHttpClient(sim.fetch), maxNetworkRetries: 0 })`,
    `const myWebhookHandler = () => new Response('{}')`,
    '',
  ].join('\n'),
  4: null,
}

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
    const context = TOUR_CONTEXT[n]
    it.skipIf(context === null)(`runs block ${n} of docs/getting-started.md in the tour's context`, () =>
      run(`getting-started-${n}`, 'getting-started', `${context ?? ''}${source}`),
    )
  })
})
