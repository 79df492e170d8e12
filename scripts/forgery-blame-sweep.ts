import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { parseArgs } from 'node:util'
import {
  buggySubscriptionMirrors,
  checkSubscriptionMirror,
  type FlowCheckResult,
  type MirroredSubscription,
  type SubscriptionMirrorFactory,
  serveRuns,
} from '../src/harness/index.js'

/**
 * Which mistake the verdicts blame for a mirror that writes a delivered payload before verifying
 * its signature, seed by seed: the bundled in-process variant (`writes-before-verifying`) and, with
 * `--python`, the Python mirror on a port (`MIRROR_FLAW=unsigned`, through serveRuns; needs Debian's
 * python3-stripe). Per seed: caught or not, the first verdict, and whether a `mirror.converged`
 * verdict blames an idempotency key or an ordering check (it should name the forgery instead).
 *
 * @example
 * // npx tsx scripts/forgery-blame-sweep.ts --seeds 20 --runs 30 --python
 */
const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '20' },
    runs: { type: 'string', default: '30' },
    python: { type: 'boolean', default: false },
  },
})
const seeds = Number(values.seeds)
const numRuns = Number(values.runs)
const MISBLAME = /idempotency key coarser|ordering check/

/** One seed's figures: caught, first verdict, a converged verdict that blames a dropped event. */
function row(seed: number, result: FlowCheckResult, ms: number): { named: boolean; misblamed: boolean; forged: boolean } {
  const violations = result.violations ?? []
  const first = violations[0]?.checker ?? '-'
  const converged = violations.find((v) => v.checker === 'mirror.converged')
  const misblamed = converged !== undefined && MISBLAME.test(converged.message)
  const steps = result.counterexample?.steps.length ?? 0
  const forged = result.counterexample?.steps.some((s) => s.kind === 'forge') === true
  console.log(
    `  seed ${seed}: ${result.ok ? 'missed' : 'caught'}, first ${first}, ${forged ? 'a forge step' : 'no forge step'} in the counterexample, converged ${converged === undefined ? 'absent' : misblamed ? 'blames idempotency/ordering' : 'names the forgery or another cause'}, ${steps} step(s), ${ms.toFixed(0)} ms`,
  )
  return { named: first === 'flow.forgery_ignored', misblamed, forged }
}

async function sweep(label: string, factory: SubscriptionMirrorFactory, prefix: 'Stripe' | 'Service'): Promise<void> {
  console.log(`${label} (seeds 1..${seeds}, ${numRuns} runs)`)
  let named = 0
  let misblamed = 0
  let forged = 0
  for (let seed = 1; seed <= seeds; seed++) {
    const t = performance.now()
    const result = await checkSubscriptionMirror(factory, { headerPrefix: prefix, numRuns, seed })
    const r = row(seed, result, performance.now() - t)
    if (r.named) named++
    if (r.misblamed) misblamed++
    if (r.forged) forged++
  }
  console.log(`${label}: flow.forgery_ignored first on ${named}/${seeds} (counterexamples with a forge step: ${forged}); mirror.converged blaming idempotency/ordering on ${misblamed}/${seeds}`)
}

/** The Python mirror of the tests on its own port, with the write-before-verifying mistake. */
async function pythonMirror(server: Awaited<ReturnType<typeof serveRuns>>) {
  const script = new URL('../test/serve/stripe_python_mirror_app.py', import.meta.url).pathname
  const env = { API_BASE: server.apiUrl, SECRET_KEY: server.secretKey, WEBHOOK_SECRET: server.webhookSecret, MIRROR_FLAW: 'unsigned' }
  const child = spawn('/usr/bin/python3', [script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
  const first = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve))
  const url = `http://127.0.0.1:${(JSON.parse(first) as { port: number }).port}`
  const get = async (path: string) => (await fetch(url + path)).json()
  const app = server.app({
    url,
    reset: async () => void (await fetch(`${url}/test/reset`, { method: 'POST' })),
    state: () => ({
      subscriptions: () => get('/test/subscriptions') as Promise<Record<string, MirroredSubscription>>,
      hasAccess: async (customer: string) => (await get(`/test/access/${customer}`)) === true,
    }),
  })
  return { app: app as unknown as SubscriptionMirrorFactory, stop: () => child.kill('SIGINT') }
}

const variant = buggySubscriptionMirrors.find((v) => v.name === 'writes-before-verifying')
if (variant === undefined) throw new Error('no bundled variant writes-before-verifying')
await sweep('in process: writes-before-verifying', variant.factory, 'Service')
if (values.python) {
  const server = await serveRuns()
  const { app, stop } = await pythonMirror(server)
  try {
    await sweep('Python on a port: MIRROR_FLAW=unsigned', app, 'Stripe')
  } finally {
    stop()
    await server.close()
  }
}
