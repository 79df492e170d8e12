import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import Stripe from 'stripe'
import { createSimulator } from '../src/index.js'

/**
 * Replays the provider's documented example requests (the official node client's generated
 * examples test, one request per documented example) through the official client, each against a
 * fresh simulator, and prints how they were answered: 2xx, 4xx because a referenced object does
 * not exist (right for a stateful service), 4xx for other reasons, 501, 5xx, and calls the pinned
 * client cannot make. The provider's file is not part of this project: pass its path.
 *
 * @example
 * // npx tsx scripts/measure-examples.ts path/to/generated_examples_test.spec.js [--verbose]
 */
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { verbose: { type: 'boolean', default: false }, show: { type: 'string', default: '' } },
})
const file = positionals[0]
if (file === undefined) {
  console.error('usage: measure-examples <generated_examples_test.spec.js> [--verbose] [--show 501|other|5xx|client]')
  process.exit(2)
}

interface Example {
  readonly name: string
  readonly body: string
}

/** The `it('name', async function() { ... })` blocks of the generated file, those that mock the network left out. */
function examplesOf(text: string): Example[] {
  const out: Example[] = []
  const re = /\n {2}it\('([^']+)', async function\(\) \{\n([\s\S]*?)\n {2}\}\);\n/g
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    // The v2 examples bring a mock client of their own; they are sent through ours instead.
    const body = (m[2] as string).replace(/const stripe = testUtils\.createMockClient\(\[[\s\S]*?\]\);/, '')
    if (body.includes('nock(')) continue
    out.push({ name: m[1] as string, body })
  }
  return out
}

type Outcome = '2xx' | '4xx missing object' | '4xx other' | '501' | '5xx' | 'client cannot send'

const expect = () => ({ not: { to: { be: { null: true } } }, to: { be: { null: true } } })
const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
  ...args: string[]
) => (...a: unknown[]) => Promise<unknown>

async function run(example: Example): Promise<{ outcome: Outcome; detail: string }> {
  const sim = createSimulator({ seed: 1, headerPrefix: 'Stripe', limits: false })
  const stripe = new Stripe(sim.platform.secretKey.test, {
    httpClient: Stripe.createFetchHttpClient(sim.fetch),
    maxNetworkRetries: 0,
  })
  try {
    await new AsyncFunction('stripe', 'expect', 'Decimal', example.body)(stripe, expect, Stripe.Decimal)
    return { outcome: '2xx', detail: '' }
  } catch (error) {
    const e = error as { statusCode?: number; code?: string; message?: string; param?: string }
    const detail = `${e.statusCode ?? ''} ${e.code ?? ''} ${e.param ?? ''} ${String(e.message ?? error).slice(0, 160)}`
    if (e.statusCode === undefined) return { outcome: 'client cannot send', detail }
    if (e.statusCode === 501) return { outcome: '501', detail }
    if (e.statusCode >= 500) return { outcome: '5xx', detail }
    // An account id in the path that names no account is the provider's 403 `account_invalid`.
    if (e.code === 'resource_missing' || e.code === 'account_invalid') return { outcome: '4xx missing object', detail }
    return { outcome: '4xx other', detail }
  }
}

const examples = examplesOf(readFileSync(file, 'utf8'))
const counts: Record<Outcome, number> = {
  '2xx': 0,
  '4xx missing object': 0,
  '4xx other': 0,
  '501': 0,
  '5xx': 0,
  'client cannot send': 0,
}
const show = values.show
for (const example of examples) {
  const { outcome, detail } = await run(example)
  counts[outcome]++
  const wanted =
    values.verbose ||
    (show === '501' && outcome === '501') ||
    (show === 'other' && outcome === '4xx other') ||
    (show === '5xx' && outcome === '5xx') ||
    (show === 'client' && outcome === 'client cannot send') ||
    (show === 'missing' && outcome === '4xx missing object')
  if (wanted) console.log(`${outcome.padEnd(20)} ${example.name}: ${detail}`)
}
console.log(`documented examples: ${examples.length}`)
for (const [k, v] of Object.entries(counts)) {
  console.log(`  ${k.padEnd(20)} ${String(v).padStart(4)}  ${((100 * v) / examples.length).toFixed(1)}%`)
}
