import { describe, expect, it } from 'vitest'
import { json, setup, stateOf } from './helpers.js'

const BASE = '/v2/payments/off_session_payments'
const DAY = 86_400_000

async function customerWithCard(stripe: ReturnType<typeof setup>['stripe'], card = 'pm_card_visa') {
  return stripe.customers.create({ email: 'sub@example.com', payment_method: card })
}

describe('off-session payments', () => {
  it('creates a pending payment that succeeds asynchronously, with thin events and a balance transaction', async () => {
    const { sim, stripe } = setup()
    const cus = await customerWithCard(stripe)
    const pm = sim.service.paymentMethods.ofCustomer({ account: sim.platform.id, mode: 'test' }, cus.id)[0]?.id
    const created = await stripe.rawRequest('POST', BASE, {
      amount: { value: 2000, currency: 'usd' },
      cadence: 'recurring',
      customer: cus.id,
      payment_method: pm,
      metadata: { order: '1' },
    })
    expect(created).toMatchObject({
      object: 'v2.payments.off_session_payment',
      status: 'pending',
      amount_requested: { value: 2000, currency: 'usd' },
      customer: cus.id,
      livemode: false,
      retry_details: { attempts: 0, retry_strategy: 'smart' },
    })
    expect(created.id).toMatch(/^osp_test_/)
    expect(created.created).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/)
    await sim.settle()
    const got = await stripe.rawRequest('GET', `${BASE}/${created.id}`)
    expect(got).toMatchObject({ status: 'succeeded', retry_details: { attempts: 1 } })
    const thin = sim.admin.events({ kind: 'thin' }).map((e) => e.type)
    expect(thin).toEqual([
      'v2.payments.off_session_payment.created',
      'v2.payments.off_session_payment.attempt_started',
      'v2.payments.off_session_payment.succeeded',
    ])
    const [evt] = sim.admin.events({ kind: 'thin' })
    expect(evt?.body.related_object).toMatchObject({ id: created.id, type: 'v2.payments.off_session_payment' })
    expect(sim.service.ledger.transactions({ account: sim.platform.id, mode: 'test' })).toHaveLength(1)
  })

  it('retries a soft decline on the smart schedule and fails with retries_exhausted', async () => {
    const { sim, stripe } = setup()
    const cus = await stripe.customers.create({ email: 'x@example.com' })
    const osp = await stripe.rawRequest('POST', BASE, {
      amount: { value: 1000, currency: 'usd' },
      cadence: 'unscheduled',
      customer: cus.id,
      payment_method: 'pm_card_chargeDeclinedInsufficientFunds',
    })
    await sim.settle()
    let got = await stripe.rawRequest('GET', `${BASE}/${osp.id}`)
    expect(got).toMatchObject({ status: 'pending_retry', last_authorization_attempt_error: 'insufficient_funds' })
    await sim.clock.tickAsync(9 * DAY)
    got = await stripe.rawRequest('GET', `${BASE}/${osp.id}`)
    expect(got).toMatchObject({ status: 'failed', failure_reason: 'retries_exhausted', retry_details: { attempts: 4 } })
    expect(sim.service.ledger.transactions({ account: sim.platform.id, mode: 'test' })).toHaveLength(0)
  })

  it('fails a hard decline at once with rejected_by_partner', async () => {
    const { sim, stripe } = setup()
    const cus = await stripe.customers.create({ email: 'x@example.com' })
    const osp = await stripe.rawRequest('POST', BASE, {
      amount: { value: 1000, currency: 'usd' },
      cadence: 'recurring',
      customer: cus.id,
      payment_method: 'pm_card_chargeDeclinedLostCard',
    })
    await sim.settle()
    const got = await stripe.rawRequest('GET', `${BASE}/${osp.id}`)
    expect(got).toMatchObject({ status: 'failed', failure_reason: 'rejected_by_partner' })
  })

  it('cancels a pending payment (no attempt runs) and refuses to cancel a finished one with 400', async () => {
    const { sim, stripe } = setup()
    const cus = await stripe.customers.create({ email: 'x@example.com' })
    const body = {
      amount: { value: 1000, currency: 'usd' },
      cadence: 'recurring',
      customer: cus.id,
      payment_method: 'pm_card_visa',
    }
    const a = await stripe.rawRequest('POST', BASE, body)
    const canceled = await stripe.rawRequest('POST', `${BASE}/${a.id}/cancel`, {})
    expect(canceled.status).toBe('canceled')
    await sim.settle()
    expect((await stripe.rawRequest('GET', `${BASE}/${a.id}`)).status).toBe('canceled')
    expect(sim.service.charges.list({ account: sim.platform.id, mode: 'test' })).toHaveLength(0)
    const again = await stripe.rawRequest('POST', `${BASE}/${a.id}/cancel`, {}).catch((e) => e)
    expect(again).toMatchObject({ statusCode: 400, type: 'AlreadyCanceledError' })
    const b = await stripe.rawRequest('POST', BASE, body)
    await sim.settle()
    const err = await stripe.rawRequest('POST', `${BASE}/${b.id}/cancel`, {}).catch((e) => e)
    expect(err).toMatchObject({ statusCode: 400, type: 'NotCancelableError' })
    expect((await stripe.rawRequest('GET', `${BASE}/${b.id}`)).status).toBe('succeeded')
    expect(sim.admin.events({ type: 'v2.payments.off_session_payment.canceled' })).toHaveLength(1)
  })

  it('lists with v2 pagination: limit, next_page_url and previous_page_url', async () => {
    const { sim, stripe, key } = setup()
    const cus = await stripe.customers.create({ email: 'x@example.com' })
    const ids: string[] = []
    for (let i = 0; i < 5; i++) {
      const o = await stripe.rawRequest('POST', BASE, {
        amount: { value: 1000 + i, currency: 'usd' },
        cadence: 'recurring',
        customer: cus.id,
        payment_method: 'pm_card_visa',
      })
      ids.push(o.id)
    }
    const newest = [...ids].reverse()
    const p1 = (await json(sim, key, 'GET', `${BASE}?limit=2`)).body
    expect(p1.data.map((o: { id: string }) => o.id)).toEqual(newest.slice(0, 2))
    expect(p1.previous_page_url).toBeNull()
    const p2 = (await json(sim, key, 'GET', p1.next_page_url)).body
    expect(p2.data.map((o: { id: string }) => o.id)).toEqual(newest.slice(2, 4))
    const p3 = (await json(sim, key, 'GET', p2.next_page_url)).body
    expect(p3.data.map((o: { id: string }) => o.id)).toEqual(newest.slice(4))
    expect(p3.next_page_url).toBeNull()
    const back = (await json(sim, key, 'GET', p3.previous_page_url)).body
    expect(back.data.map((o: { id: string }) => o.id)).toEqual(newest.slice(2, 4))
    const bad = await json(sim, key, 'GET', `${BASE}?page=garbage`)
    expect(bad.status).toBe(400)
    expect(bad.body.error.code).toBe('invalid_page_token')
    const all = await stripe.rawRequest('GET', `${BASE}?limit=20`)
    expect(all.data).toHaveLength(5)
  })

  it('refuses bad input with 4xx and changes nothing', async () => {
    const { sim, key, stripe } = setup()
    const cus = await stripe.customers.create({ email: 'x@example.com' })
    const other = await stripe.customers.create({ email: 'y@example.com', payment_method: 'pm_card_visa' })
    const otherPm = sim.service.paymentMethods.ofCustomer({ account: sim.platform.id, mode: 'test' }, other.id)[0]?.id
    const ok = {
      amount: { value: 1000, currency: 'usd' },
      cadence: 'recurring',
      customer: cus.id,
      payment_method: 'pm_card_visa',
    }
    const before = stateOf(sim)
    const cases: [string, string, unknown, number, string?][] = [
      ['POST', BASE, { ...ok, amount: { value: -5, currency: 'usd' } }, 400, 'amount.value'],
      ['POST', BASE, { ...ok, amount: { value: 10.5, currency: 'usd' } }, 400, 'amount.value'],
      ['POST', BASE, { ...ok, amount: { currency: 'usd' } }, 400, 'amount.value'],
      ['POST', BASE, { ...ok, amount: { value: 1000, currency: 'zzz' } }, 400, 'amount.currency'],
      ['POST', BASE, { ...ok, cadence: 'weekly' }, 400, 'cadence'],
      ['POST', BASE, { ...ok, customer: 'cus_nope' }, 400, 'customer'],
      ['POST', BASE, { ...ok, payment_method: 'pm_nope' }, 400, 'payment_method'],
      ['POST', BASE, { ...ok, payment_method: otherPm }, 400, 'payment_method'],
      ['POST', BASE, { ...ok, surprise: 1 }, 400, 'surprise'],
      ['GET', `${BASE}/osp_test_nope`, undefined, 404, 'id'],
      ['POST', `${BASE}/osp_test_nope/cancel`, {}, 404, 'id'],
      ['GET', `${BASE}?limit=0`, undefined, 400, 'limit'],
    ]
    for (const [method, path, body, status, param] of cases) {
      const res = await json(sim, key, method, path, body)
      expect({ path, body, status: res.status, param: res.body.error?.param }).toEqual({ path, body, status, param })
    }
    expect(stateOf(sim)).toBe(before)
  })
})

describe('determinism', () => {
  it('gives the same trace hash for the same seed and the same money flows', async () => {
    const run = async () => {
      const { sim, stripe } = setup(99)
      const cus = await stripe.customers.create({ email: 'd@example.com' })
      await stripe.paymentIntents.create({ amount: 2000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true })
      await stripe.paymentIntents
        .create({ amount: 2000, currency: 'usd', payment_method: 'pm_card_chargeDeclined', confirm: true })
        .catch(() => undefined)
      await stripe.rawRequest('POST', BASE, {
        amount: { value: 700, currency: 'usd' },
        cadence: 'recurring',
        customer: cus.id,
        payment_method: 'pm_card_chargeDeclinedInsufficientFunds',
      })
      await sim.clock.tickAsync(10 * DAY)
      return sim.trace.hash()
    }
    expect(await run()).toBe(await run())
  })
})
