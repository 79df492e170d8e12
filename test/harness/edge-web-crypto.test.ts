import fc from 'fast-check'
import {
  checkSubscriptionMirror,
  type FlowClientEnv,
  type FlowProgram,
  flowProgram,
  HarnessInputError,
  mirrorSubject,
  mountApp,
  runFlow,
} from 'service-sim/harness'
import { describe, expect, it } from 'vitest'
import { requestDedupEdgeMirror, welcomeOnceEdgeMirror } from './fixtures/edge-mirror-app.js'

// The app reads `Date.now()` (the official client's tolerance check) and speaks the official client's headers.
const edge = { headerPrefix: 'Stripe', simOptions: { clock: 'global' as const } }

// Eight generated steps whose deliveries meet at the same instants: with Node's own Web Crypto
// (on its thread pool) eight runs of it gave eight different traces.
const concurrentDeliveries = (fc.sample(flowProgram(), { seed: 7, numRuns: 2 }) as FlowProgram[])[1] as FlowProgram

const subscribeOnce = {
  seed: 1,
  steps: [{ kind: 'subscribe', customer: 0, plan: 0, quantity: 1, trialDays: 0 }],
  faults: [],
} as unknown as FlowProgram

const enc = new TextEncoder()
const subtle = () => globalThis.crypto.subtle
const realSign = Object.getPrototypeOf(crypto.subtle).sign as unknown
const installed = () => Object.hasOwn(crypto.subtle, 'sign') || crypto.subtle.sign !== realSign

/** What an app computes with `crypto.subtle`, as hex: HMAC signatures and verdicts, digests of several shapes of input. */
async function webCryptoAnswers(keptKey: CryptoKey): Promise<string[]> {
  const hex = (b: ArrayBuffer) => (b instanceof ArrayBuffer ? Buffer.from(b).toString('hex') : `not an ArrayBuffer: ${String(b)}`)
  const out: string[] = []
  const payload = enc.encode('1700000000.{"id":"evt_1"}')
  for (const hash of ['SHA-1', 'SHA-256', 'SHA-384', 'SHA-512']) {
    const key = await subtle().importKey('raw', enc.encode('whsec_edge'), { name: 'HMAC', hash: { name: hash } }, false, [
      'sign',
      'verify',
    ])
    const mac = await subtle().sign('hmac', key, payload)
    out.push(`${hash} ${key.type} ${JSON.stringify(key.algorithm)} ${key.extractable} ${key.usages.join()} ${hex(mac)}`)
    out.push(`verify ${await subtle().verify({ name: 'HMAC' }, key, mac, payload)}`)
    out.push(
      `tampered ${await subtle().verify('HMAC', key, mac.slice(1), payload)} ${await subtle().verify('HMAC', key, new Uint8Array(mac.byteLength), payload)}`,
    )
    out.push(
      `digest ${hex(await subtle().digest(hash, new DataView(payload.buffer, 3, 9)))} ${hex(await subtle().digest({ name: hash.toLowerCase() }, payload.buffer))}`,
    )
  }
  out.push(`kept ${hex(await subtle().sign('HMAC', keptKey, payload))}`)
  const signOnly = await subtle().importKey('raw', enc.encode('k'), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const refusal = await subtle()
    .verify('HMAC', signOnly, new Uint8Array(32), payload)
    .catch((e: Error) => `${e.name}: ${e.message}`)
  out.push(`refused ${String(refusal)}`)
  return out
}

/** A mirror that computes `webCryptoAnswers` when it first receives a delivery, noting whether Web Crypto was the harness's. */
function probing(keptKey: CryptoKey, seen: { answers?: string[]; installed?: boolean }) {
  return mountApp((_env: FlowClientEnv) => ({
    app: async () => {
      if (seen.answers === undefined) {
        seen.installed = installed()
        seen.answers = await webCryptoAnswers(keptKey)
      }
      return new Response('ok')
    },
    subscriptions: () => ({}),
    hasAccess: () => false,
  }))
}

describe('an edge-style app that verifies deliveries with Web Crypto', () => {
  it('runs the same program to the same trace every time', async () => {
    const hashes = new Set<string>()
    for (let i = 0; i < 6; i++)
      hashes.add((await runFlow(concurrentDeliveries, mirrorSubject(welcomeOnceEdgeMirror, {}, 'edge'), edge)).traceHash)
    expect(concurrentDeliveries.steps.length).toBe(8)
    expect(hashes.size).toBe(1)
  }, 120_000)

  it('is caught deduplicating deliveries by request in memory, with a counterexample that fails again, on seeds 1 to 5', async () => {
    for (let seed = 1; seed <= 5; seed++) {
      const result = await checkSubscriptionMirror(requestDedupEdgeMirror, { ...edge, seed })
      expect(result.ok, `seed ${seed}`).toBe(false)
      expect(
        result.violations?.map((v) => v.checker),
        `seed ${seed}`,
      ).toContain('mirror.welcome_once')
      const again = await runFlow(result.counterexample as FlowProgram, mirrorSubject(requestDedupEdgeMirror, {}, 'edge'), edge)
      expect(again.traceHash, `seed ${seed}`).toBe(result.traceHash)
    }
  }, 300_000)

  it('passes when it welcomes each subscription once, as its database records', async () => {
    const result = await checkSubscriptionMirror(welcomeOnceEdgeMirror, { ...edge, numRuns: 20 })
    expect(result.violations ?? []).toEqual([])
  }, 120_000)
})

describe('Web Crypto during a flow run', () => {
  it('answers HMAC and digests byte for byte as the real one, also with a key made before the run', async () => {
    const keptKey = await subtle().importKey('raw', enc.encode('whsec_kept'), { name: 'HMAC', hash: 'SHA-512' }, false, ['sign'])
    const real = await webCryptoAnswers(keptKey)
    const seen: { answers?: string[]; installed?: boolean } = {}
    await runFlow(subscribeOnce, mirrorSubject(probing(keptKey, seen), {}, 'probe'), edge)
    expect(seen.installed).toBe(true)
    expect(seen.answers).toEqual(real)
    expect(real).toContain('verify true')
    expect(real).toContain('tampered false false')
    expect(real.at(-1)).toMatch(/^refused InvalidAccessError/)
    expect(installed()).toBe(false)
  })

  it('is the real one again after a run that throws, and throughout a run that turns it off', async () => {
    const keptKey = await subtle().importKey('raw', enc.encode('k'), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
    const throwing = mirrorSubject(probing(keptKey, {}), {}, 'probe')
    const failing = { ...throwing, checkpoint: () => Promise.reject(new Error('the database is down')) }
    await expect(runFlow(subscribeOnce, failing, edge)).rejects.toThrow('the database is down')
    expect(installed()).toBe(false)
    const seen: { installed?: boolean } = {}
    await runFlow(subscribeOnce, mirrorSubject(probing(keptKey, seen), {}, 'probe'), { ...edge, deterministicCrypto: false })
    expect(seen.installed).toBe(false)
  })

  it('stays the harness one until the last of two concurrent runs ends', async () => {
    const keptKey = await subtle().importKey('raw', enc.encode('k'), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
    const noted: boolean[] = []
    const noting = mountApp((_env: FlowClientEnv) => ({
      app: () => {
        noted.push(installed())
        return new Response('ok')
      },
      subscriptions: () => ({}),
      hasAccess: () => false,
    }))
    const longer = { ...subscribeOnce, steps: [...subscribeOnce.steps, { kind: 'advance', ms: 40 * 86_400_000 }] } as FlowProgram
    await Promise.all([
      runFlow(subscribeOnce, mirrorSubject(probing(keptKey, {}), {}, 'probe'), { headerPrefix: 'Stripe' }),
      runFlow(longer, mirrorSubject(noting, {}, 'noting'), { headerPrefix: 'Stripe' }),
    ])
    expect(noted.length).toBeGreaterThan(3)
    expect(noted.every(Boolean)).toBe(true)
    expect(installed()).toBe(false)
  })

  it('refuses a deterministicCrypto that is not a boolean, naming the API', async () => {
    const subject = mirrorSubject(welcomeOnceEdgeMirror, {}, 'edge')
    await expect(runFlow(subscribeOnce, subject, { deterministicCrypto: 'no' as never })).rejects.toThrow(
      new HarnessInputError('runFlow: option \'deterministicCrypto\' must be true or false, got "no"'),
    )
    await expect(checkSubscriptionMirror(welcomeOnceEdgeMirror, { deterministicCrypto: 1 as never })).rejects.toThrow(
      /^checkSubscriptionMirror: option 'deterministicCrypto' must be true or false, got 1$/,
    )
  })
})
