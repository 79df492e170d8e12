import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { SignatureVerificationError, signatureHeader, verifySignature } from '../../src/index.js'
import { collect, destination, ENDPOINT_KINDS, setup, v2 } from './helpers.js'

const URL_A = 'https://hooks.example.test/a'
const stripe = new Stripe('sk_test_x')

function bothVerify(raw: string, header: string, secret: string, now: number, tolerance = 300) {
  let ours: unknown
  let theirs: unknown
  try {
    verifySignature(raw, header, secret, { now, tolerance })
    ours = 'ok'
  } catch (e) {
    ours = e
  }
  try {
    stripe.webhooks.constructEvent(raw, header, secret, tolerance, undefined, now)
    theirs = 'ok'
  } catch (e) {
    theirs = e
  }
  return { ours, theirs }
}

describe('signatures', () => {
  const body = '{"id":"evt_1","object":"event"}'
  const secret = 'whsec_test_secret'
  const t = 1_767_225_600

  it('agrees with the official client on valid, tampered, stale, future and malformed headers', () => {
    const good = signatureHeader(body, [secret], t, { test: true })
    const cases: [string, string, number, number, string | undefined][] = [
      [body, good, t * 1000, 300, undefined],
      [body, good, (t + 299) * 1000, 300, undefined],
      [body, good, (t + 301) * 1000, 300, 'timestamp_outside_tolerance'],
      [body, good, (t + 10_000) * 1000, 0, undefined],
      [body, good, (t - 1000) * 1000, 300, undefined],
      [`${body} `, good, t * 1000, 300, 'signature_mismatch'],
      [body, signatureHeader(body, ['whsec_other'], t), t * 1000, 300, 'signature_mismatch'],
      [body, `t=${t}`, t * 1000, 300, 'no_v1_signature'],
      [body, `v1=${'0'.repeat(64)}`, t * 1000, 300, 'no_v1_signature'],
      [body, good.replace(/v1=[0-9a-f]+,/, ''), t * 1000, 300, 'no_v1_signature'],
    ]
    for (const [raw, header, now, tolerance, code] of cases) {
      const { ours, theirs } = bothVerify(raw, header, secret, now, tolerance)
      if (code === undefined) {
        expect(ours, header).toBe('ok')
        expect(theirs, header).toBe('ok')
      } else {
        expect(ours).toBeInstanceOf(SignatureVerificationError)
        expect((ours as SignatureVerificationError).code).toBe(code)
        expect(theirs).toBeInstanceOf(Stripe.errors.StripeSignatureVerificationError)
      }
    }
  })

  it('reports a missing header with its own code', () => {
    expect(() => verifySignature(body, null, secret)).toThrow(expect.objectContaining({ code: 'missing_header' }))
    expect(() => verifySignature(body, '', secret)).toThrow(expect.objectContaining({ code: 'missing_header' }))
  })

  it.each(ENDPOINT_KINDS)('signs each attempt to a $name afresh and adds a fake v0 only on test events', async (kind) => {
    const { sim, stripe: client, live } = setup()
    const test = await kind.make(client, { url: URL_A })
    const liveDest = await kind.make(live, { url: 'https://hooks.example.test/live' })
    const got = collect(sim, URL_A, (i) => (i === 0 ? 500 : 200))
    const liveGot = collect(sim, 'https://hooks.example.test/live')
    sim.admin.trigger('customer.created', { synthetic: true })
    sim.admin.trigger('customer.created', { synthetic: true, mode: 'live' })
    await sim.clock.runToLastAsync()
    expect(got).toHaveLength(2)
    expect(got[0]!.raw).toBe(got[1]!.raw)
    expect(got[0]!.signature).not.toBe(got[1]!.signature)
    for (const g of got) {
      expect(g.signature).toContain(',v0=')
      expect(client.webhooks.constructEvent(g.raw, g.signature, test.secret, 300, undefined, g.at).type).toBe('customer.created')
    }
    expect(liveGot[0]!.signature).not.toContain('v0=')
    expect(
      live.webhooks.constructEvent(liveGot[0]!.raw, liveGot[0]!.signature, liveDest.secret, 300, undefined, liveGot[0]!.at)
        .livemode,
    ).toBe(true)
  })

  it.each(ENDPOINT_KINDS)(
    'keeps a rolled secret of a $name valid for the chosen overlap with one v1 per active secret',
    async (kind) => {
      const { sim, stripe: client } = setup()
      const { id, secret: old } = await kind.make(client, { url: URL_A })
      const got = collect(sim, URL_A)
      const fresh = sim.admin.rollSecret(id, { overlapMs: 3_600_000 })
      expect(sim.admin.signingSecrets(id)).toEqual([fresh, old])
      sim.admin.trigger('customer.created', { synthetic: true })
      await sim.settle()
      expect(got[0]!.signature.match(/v1=/g)).toHaveLength(2)
      for (const s of [old, fresh])
        expect(() => verifySignature(got[0]!.raw, got[0]!.signature, s, { now: sim.clock.now })).not.toThrow()
      for (const s of [old, fresh])
        client.webhooks.constructEvent(got[0]!.raw, got[0]!.signature, s, 300, undefined, sim.clock.now)
      await sim.clock.tickAsync(3_600_000)
      sim.admin.trigger('customer.created', { synthetic: true })
      await sim.settle()
      expect(got[1]!.signature.match(/v1=/g)).toHaveLength(1)
      expect(() => verifySignature(got[1]!.raw, got[1]!.signature, old, { now: sim.clock.now })).toThrow(
        SignatureVerificationError,
      )
      expect(() => sim.admin.rollSecret(id, { overlapMs: 25 * 3_600_000 })).toThrow()
    },
  )

  it('rolls a secret through the API and refuses an overlap over 24 hours', async () => {
    const { sim, stripe: client } = setup()
    const { id, secret: old } = await destination(client, { url: URL_A })
    const tooLong = await v2(sim, 'POST', `/v2/core/event_destinations/${id}/roll_secret`, { expires_in: 86_401 })
    expect(tooLong.status).toBe(400)
    expect(sim.admin.signingSecrets(id)).toEqual([old])
    const rolled = await v2(sim, 'POST', `/v2/core/event_destinations/${id}/roll_secret`, { expires_in: 86_400 })
    expect(rolled.status).toBe(200)
    expect(rolled.json.webhook_endpoint.signing_secret).toMatch(/^whsec_/)
    expect(sim.admin.signingSecrets(id)).toEqual([rolled.json.webhook_endpoint.signing_secret, old])
    await sim.clock.tickAsync(86_400_000)
    expect(sim.admin.signingSecrets(id)).toEqual([rolled.json.webhook_endpoint.signing_secret])
  })
})
