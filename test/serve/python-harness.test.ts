import { type ChildProcess, spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import {
  checkDunning,
  checkFulfilment,
  checkSubscriptionMirror,
  type MirroredSubscription,
  type RunServer,
  serveRuns,
} from 'service-sim/harness'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PYTHON, pythonStripeMissing } from './python-stripe-probe.js'

// A subscription mirror, a dunning app and a Checkout shop written in Python (stdlib http.server,
// Debian's stripe-python) on ports of their own, attacked run after run by the flow properties through
// serveRuns: the harness is not only for apps in this process or in this language.

const MIRROR_APP = fileURLToPath(new URL('./stripe_python_mirror_app.py', import.meta.url))
const DUNNING_APP = fileURLToPath(new URL('./stripe_python_dunning_app.py', import.meta.url))
const SHOP_APP = fileURLToPath(new URL('./stripe_python_shop_app.py', import.meta.url))
const missing = pythonStripeMissing('python-harness.test.ts')

const children: ChildProcess[] = []
let server: RunServer

beforeAll(async () => {
  if (missing === undefined) server = await serveRuns()
})
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGINT')
  await server?.close()
})

/** Starts a Python app on its own port and waits for the port it prints. */
async function startPython(script: string, env: Record<string, string>) {
  const child = spawn(PYTHON, [script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
  children.push(child)
  const first = await new Promise<string>((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => reject(new Error(`the Python app exited (${code}) before listening`)))
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', resolve)
  })
  const url = `http://127.0.0.1:${(JSON.parse(first) as { port: number }).port}`
  return { url, stop: () => child.kill('SIGINT') }
}

/** The Python mirror with one mistake (or none), as the property's factory. */
async function pythonMirror(flaw: '' | 'payload' | 'unsigned') {
  const env = { API_BASE: server.apiUrl, SECRET_KEY: server.secretKey, WEBHOOK_SECRET: server.webhookSecret, MIRROR_FLAW: flaw }
  const { url, stop } = await startPython(MIRROR_APP, env)
  const get = async (path: string) => (await fetch(url + path)).json()
  const app = server.app({
    url,
    reset: async () => void (await fetch(`${url}/test/reset`, { method: 'POST' })),
    state: () => ({
      subscriptions: () => get('/test/subscriptions') as Promise<Record<string, MirroredSubscription>>,
      hasAccess: async (customer: string) => (await get(`/test/access/${customer}`)) === true,
    }),
  })
  return { app, stop }
}

/** The Python dunning app with one mistake (or none): its notices come back through recordUrl. */
async function pythonDunning(flaw: '' | 'every-failure') {
  const env = { RECORD_URL: server.recordUrl, WEBHOOK_SECRET: server.webhookSecret, DUNNING_FLAW: flaw }
  const { url, stop } = await startPython(DUNNING_APP, env)
  const app = server.app({ url, reset: async () => void (await fetch(`${url}/test/reset`, { method: 'POST' })) })
  return { app, stop }
}

/** The Python shop with one mistake (or none): webhook and success page, shipments through recordUrl. */
async function pythonShop(flaw: '' | 'page-ships') {
  const env = {
    API_BASE: server.apiUrl,
    SECRET_KEY: server.secretKey,
    RECORD_URL: server.recordUrl,
    WEBHOOK_SECRET: server.webhookSecret,
    SHOP_FLAW: flaw,
  }
  const { url, stop } = await startPython(SHOP_APP, env)
  const app = server.app({ url, reset: async () => void (await fetch(`${url}/test/reset`, { method: 'POST' })) })
  return { app, stop }
}

describe.skipIf(missing !== undefined)('a Python app on a port, attacked through serveRuns', () => {
  it('passes the subscription mirror property when it verifies with stripe-python and reads each subscription back', async () => {
    const { app, stop } = await pythonMirror('')
    try {
      const result = await checkSubscriptionMirror(app, { headerPrefix: 'Stripe', numRuns: 8, seed: 3 })
      expect(result.violations ?? []).toEqual([])
      expect(result.ok).toBe(true)
    } finally {
      stop()
    }
  }, 180_000)

  it('catches a Python app that writes each delivered payload as it comes, the last delivered winning', async () => {
    const { app, stop } = await pythonMirror('payload')
    try {
      const result = await checkSubscriptionMirror(app, { headerPrefix: 'Stripe', numRuns: 30, seed: 1 })
      expect(result.ok).toBe(false)
      expect(result.violations?.map((v) => v.checker)).toContainEqual(expect.stringMatching(/^mirror\./))
    } finally {
      stop()
    }
  }, 180_000)

  it('catches a Python app that writes the payload before it verifies the signature, naming what it wrote before verifying', async () => {
    const { app, stop } = await pythonMirror('unsigned')
    try {
      const result = await checkSubscriptionMirror(app, { headerPrefix: 'Stripe', numRuns: 30, seed: 1 })
      expect(result.ok).toBe(false)
      // Caught through a forgery the app wrote, or a late delivery it refused after writing it.
      const [first] = result.violations ?? []
      expect(['flow.forgery_ignored', 'mirror.converged']).toContain(first?.checker)
      expect(first?.message).toMatch(
        /verify the signature on the raw body before acting|before the signature check or the API read succeeded/,
      )
    } finally {
      stop()
    }
  }, 180_000)

  it('blames the forgery a Python app wrote before verifying, not a dropped event, though the app answers on the wall clock', async () => {
    const { app, stop } = await pythonMirror('unsigned')
    try {
      // Seed 2: the counterexample forges a cancellation of a paying customer's subscription.
      const result = await checkSubscriptionMirror(app, { headerPrefix: 'Stripe', numRuns: 30, seed: 2 })
      const [first] = result.violations ?? []
      expect(first?.checker).toBe('flow.forgery_ignored')
      expect(first?.message).toMatch(
        /^a forged delivery \(wrong_secret: customer\.subscription\.deleted, answered 400\) made the app hold sub_\w+ as status canceled/,
      )
      const converged = result.violations?.find((v) => v.checker === 'mirror.converged')
      expect(converged?.message ?? '').not.toMatch(/idempotency key|ordering check/)
    } finally {
      stop()
    }
  }, 180_000)

  it('passes the dunning property with a Python app whose notices come back through recordUrl', async () => {
    const { app, stop } = await pythonDunning('')
    try {
      const result = await checkDunning(app, { headerPrefix: 'Stripe', numRuns: 8, seed: 1 })
      expect(result.violations ?? []).toEqual([])
      expect(result.ok).toBe(true)
    } finally {
      stop()
    }
  }, 180_000)

  it('catches a Python dunning app that sends a notice for every failed attempt', async () => {
    const { app, stop } = await pythonDunning('every-failure')
    try {
      // Seed 3: its failing run comes early and shrinks in a few steps over HTTP (seed 1 takes twice as long).
      const result = await checkDunning(app, { headerPrefix: 'Stripe', numRuns: 12, seed: 3 })
      expect(result.ok).toBe(false)
      expect(result.violations?.[0]?.checker).toBe('dunning.notice_once')
      expect(result.violations?.[0]?.message).toMatch(/notice\(s\) for one failed attempt cycle \(expected 1\)/)
    } finally {
      stop()
    }
  }, 180_000)

  it('passes the fulfilment property with a Python shop whose success page races the webhook over HTTP', async () => {
    const { app, stop } = await pythonShop('')
    try {
      const result = await checkFulfilment(app, { headerPrefix: 'Stripe', numRuns: 20, seed: 2 })
      expect(result.violations ?? []).toEqual([])
      expect(result.ok).toBe(true)
    } finally {
      stop()
    }
  }, 180_000)

  it('catches a Python shop whose success page ships a delayed payment before it clears, naming the unread page', async () => {
    const { app, stop } = await pythonShop('page-ships')
    try {
      const result = await checkFulfilment(app, { headerPrefix: 'Stripe', numRuns: 30, seed: 1 })
      expect(result.ok).toBe(false)
      expect(result.violations?.[0]?.checker).toBe('fulfilment.unpaid')
      expect(result.violations?.[0]?.message).toMatch(
        /not paid, outside any delivery; no API read of it; provider then: status \w+, payment_status unpaid/,
      )
    } finally {
      stop()
    }
  }, 180_000)
})
