import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { typeShape } from '../../src/catalogue/index.js'
import { createSimulator } from '../../src/index.js'
import { shapeProblems } from '../engine/shape-check.js'

function client() {
  const sim = createSimulator({ seed: 43, headerPrefix: 'Stripe', limits: false })
  const stripe = new Stripe(sim.platform.secretKey.test, {
    httpClient: Stripe.createFetchHttpClient(sim.fetch),
    maxNetworkRetries: 0,
  })
  return { sim, stripe }
}

/** The fields the official client declares for a type (read from the catalogue generated from its `.d.ts`). */
function declared(type: string): string[] {
  const s = typeShape(type)
  return s?.t === 'object' ? Object.keys(s.fields) : []
}

/** Every declared field but those that only some objects of the type carry. */
function expectWhole(type: string, value: unknown, except: readonly string[]): void {
  expect(shapeProblems(type, value, 4)).toEqual([])
  const missing = declared(type).filter((f) => !except.includes(f) && !Object.hasOwn(value as object, f))
  expect(missing).toEqual([])
}

// `deleted` is on deleted accounts only; `company` and `individual` follow the business type.
const IDENTITY = ['deleted', 'company', 'individual']

const COMPLETE: Stripe.AccountUpdateParams = {
  business_type: 'individual',
  business_profile: { mcc: '5734', url: 'https://shop.example.com' },
  individual: {
    first_name: 'Jenny',
    last_name: 'Rosen',
    email: 'jenny@example.com',
    phone: '+15555550100',
    ssn_last_4: '0000',
    dob: { day: 1, month: 1, year: 1990 },
    address: { line1: '1 Main St', city: 'San Francisco', postal_code: '94111', state: 'CA' },
  },
  tos_acceptance: { date: 1_767_225_600, ip: '127.0.0.1' },
  external_account: 'btok_us_verified',
}

describe('the account object through the official client', () => {
  it('carries every declared field on the platform, a connected account set up by the operator and one listed', async () => {
    const { sim, stripe } = client()
    const me = await stripe.accounts.retrieveCurrent()
    expectWhole('Account', me, IDENTITY)
    expect(me).toMatchObject({
      id: sim.platform.id,
      type: 'standard',
      controller: { type: 'account' },
      capabilities: { card_payments: 'active', transfers: 'active' },
      charges_enabled: true,
      details_submitted: true,
    })
    const shop = sim.admin.createAccount({ email: 'shop@example.com', country: 'FR' })
    const theirs = await stripe.accounts.retrieve(shop.id)
    expectWhole('Account', theirs, IDENTITY)
    expect(theirs).toMatchObject({ email: 'shop@example.com', country: 'FR', default_currency: 'eur' })
    expect(theirs.external_accounts).toMatchObject({ object: 'list', data: [], url: `/v1/accounts/${shop.id}/external_accounts` })
    const listed = await stripe.accounts.list()
    expect(listed.data.map((a) => a.id)).toEqual([shop.id])
    expectWhole('Account', listed.data[0], IDENTITY)
  })

  it('starts a custom account with requested capabilities inactive and its requirements due, then activates them as the platform provides them', async () => {
    const { sim, stripe } = client()
    const acct = await stripe.accounts.create({
      type: 'custom',
      country: 'US',
      email: 'custom@example.com',
      capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
    })
    expectWhole('Account', acct, IDENTITY)
    expect(acct.capabilities).toEqual({ card_payments: 'inactive', transfers: 'inactive' })
    expect(acct).toMatchObject({ charges_enabled: false, payouts_enabled: false, details_submitted: false })
    expect(acct.requirements).toMatchObject({ disabled_reason: 'requirements.past_due' })
    expect(acct.requirements?.currently_due).toEqual(
      expect.arrayContaining(['business_type', 'external_account', 'tos_acceptance.date']),
    )
    expect(acct.controller).toMatchObject({ type: 'application', requirement_collection: 'application', is_controller: true })

    const typed = await stripe.accounts.update(acct.id, { business_type: 'individual' })
    expect(typed.requirements?.currently_due).toEqual(expect.arrayContaining(['individual.first_name', 'individual.dob.day']))
    expect(typed.individual).toMatchObject({ object: 'person', account: acct.id })

    const done = await stripe.accounts.update(acct.id, COMPLETE)
    expectWhole('Account', done, ['deleted', 'company'])
    expect(done.capabilities).toEqual({ card_payments: 'active', transfers: 'active' })
    expect(done).toMatchObject({ charges_enabled: true, payouts_enabled: true, details_submitted: true })
    expect(done.requirements).toMatchObject({ currently_due: [], past_due: [], disabled_reason: null })
    expect(done.individual).toMatchObject({ first_name: 'Jenny', ssn_last_4_provided: true })
    expect(done.individual).not.toHaveProperty('ssn_last_4')
    expect(done.external_accounts?.data).toMatchObject([{ object: 'bank_account', account: acct.id, last4: '6789' }])
    expect(await stripe.accounts.retrieve(acct.id)).toEqual(done)

    // Each change is an account.updated event of the connected account, with what it replaced.
    const events = sim.admin.events({ account: acct.id, type: 'account.updated' })
    expect(events).toHaveLength(3)
    const last = events[2]?.body.data as { object: Stripe.Account; previous_attributes: Record<string, unknown> }
    expect(last.previous_attributes.capabilities).toEqual({ card_payments: 'inactive', transfers: 'inactive' })
    expect(last.previous_attributes.charges_enabled).toBe(false)
    expect(last.object.capabilities).toEqual({ card_payments: 'active', transfers: 'active' })
  })

  it('shows a company account its company, with numbers it was given only as provided flags', async () => {
    const { stripe } = client()
    const acct = await stripe.accounts.create({
      type: 'custom',
      business_type: 'company',
      company: { name: 'Widgets Ltd', tax_id: '000000000', address: { city: 'London' } },
      capabilities: { transfers: { requested: true } },
    })
    expectWhole('Account', acct, ['deleted', 'individual'])
    expect(acct.company).toMatchObject({ name: 'Widgets Ltd', tax_id_provided: true, address: { city: 'London', line1: null } })
    expect(acct.company).not.toHaveProperty('tax_id')
    expect(acct.requirements?.currently_due).not.toContain('company.tax_id')
  })

  it('shows only the identity of the current business type, and takes a country in either case', async () => {
    const { stripe } = client()
    const acct = await stripe.accounts.create({ type: 'custom', country: 'gb', business_type: 'individual' })
    expect(acct).toMatchObject({ country: 'GB', default_currency: 'gbp', individual: { object: 'person' } })
    expect(acct).not.toHaveProperty('company')
    const switched = await stripe.accounts.update(acct.id, { business_type: 'company', company: { name: 'Now Ltd' } })
    expect(switched.company).toMatchObject({ name: 'Now Ltd' })
    expect(switched).not.toHaveProperty('individual')
    expect(await stripe.accounts.retrieve(acct.id)).toEqual(switched)
  })

  it('lists, retrieves and requests capabilities through their own operations, as account updates', async () => {
    const { sim, stripe } = client()
    const acct = await stripe.accounts.create({ type: 'custom', capabilities: { transfers: { requested: true } } })
    const listed = await stripe.accounts.listCapabilities(acct.id)
    expect(listed.data.map((c) => [c.id, c.status, c.requested])).toEqual([
      ['card_payments', 'unrequested', false],
      ['transfers', 'inactive', true],
    ])
    for (const c of listed.data) expect(shapeProblems('Capability', c, 4)).toEqual([])
    const transfers = await stripe.accounts.retrieveCapability(acct.id, 'transfers')
    expect(transfers).toMatchObject({
      account: acct.id,
      requested_at: acct.created,
      requirements: { disabled_reason: 'requirements.fields_needed' },
    })
    expect(transfers.requirements?.currently_due).toContain('external_account')
    const card = await stripe.accounts.updateCapability(acct.id, 'card_payments', { requested: true })
    expect(card).toMatchObject({ id: 'card_payments', requested: true, status: 'inactive' })
    expect((await stripe.accounts.retrieve(acct.id)).capabilities).toEqual({ card_payments: 'inactive', transfers: 'inactive' })
    expect(sim.admin.events({ account: acct.id, type: 'account.updated' })).toHaveLength(2)
    await expect(stripe.accounts.retrieveCapability(acct.id, 'teleportation')).rejects.toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    })
    const stranger = sim.admin.createAccount({ platform: undefined })
    await expect(stripe.accounts.listCapabilities(stranger.id)).rejects.toBeInstanceOf(Stripe.errors.StripePermissionError)
    await expect(stripe.accounts.updateCapability(stranger.id, 'transfers', { requested: true })).rejects.toBeInstanceOf(
      Stripe.errors.StripePermissionError,
    )
  })

  it('unrequests a capability, and deletes a test-mode connected account for good', async () => {
    const { sim, stripe } = client()
    const acct = await stripe.accounts.create({ type: 'express', capabilities: { transfers: { requested: true } } })
    const updated = await stripe.accounts.update(acct.id, { capabilities: { transfers: { requested: false } } })
    expect(updated.capabilities).toEqual({})
    expect(await stripe.accounts.del(acct.id)).toEqual({ id: acct.id, object: 'account', deleted: true })
    await expect(stripe.accounts.retrieve(acct.id)).rejects.toBeInstanceOf(Stripe.errors.StripePermissionError)
    expect((await stripe.accounts.list()).data).toEqual([])
    await expect(stripe.accounts.del(sim.platform.id)).rejects.toMatchObject({ statusCode: 400 })
  })

  it('refuses to delete a live standard account or one with money, and deletes a live express account with none', async () => {
    const { sim } = client()
    const live = new Stripe(sim.platform.secretKey.live, {
      httpClient: Stripe.createFetchHttpClient(sim.fetch),
      maxNetworkRetries: 0,
    })
    const standard = await live.accounts.create({ type: 'standard' })
    await expect(live.accounts.del(standard.id)).rejects.toMatchObject({ statusCode: 400 })
    const express = await live.accounts.create({ type: 'express' })
    await live.paymentIntents.create(
      { amount: 1000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true },
      { stripeAccount: express.id },
    )
    await expect(live.accounts.del(express.id)).rejects.toMatchObject({ statusCode: 400 })
    const empty = await live.accounts.create({ type: 'express' })
    expect(await live.accounts.del(empty.id)).toMatchObject({ id: empty.id, deleted: true })
    expect((await live.accounts.list()).data.map((a) => a.id).sort()).toEqual([standard.id, express.id].sort())
  })

  it('refuses a bad update of an account no request has read yet, and makes nothing for it', async () => {
    const { sim, stripe } = client()
    const shop = sim.admin.createAccount()
    await expect(stripe.accounts.update(shop.id, { email: 'nope' })).rejects.toMatchObject({ statusCode: 400, param: 'email' })
    expect(sim.service.engine.resource('account').get({ account: shop.id, mode: 'test' }, shop.id)).toBeUndefined()
  })

  it('refuses a malformed country or email with 400 and opens no account', async () => {
    const { sim, stripe } = client()
    const before = sim.admin.accounts().length
    await expect(stripe.accounts.create({ country: 'USA' })).rejects.toMatchObject({ statusCode: 400, param: 'country' })
    await expect(stripe.accounts.create({ email: 'not-an-email' })).rejects.toMatchObject({ statusCode: 400, param: 'email' })
    expect(sim.admin.accounts().length).toBe(before)
  })
})

describe('the balance and balance transactions through the official client', () => {
  it('carries every declared balance field, the money from the ledger', async () => {
    const { stripe } = client()
    const empty = await stripe.balance.retrieve()
    expectWhole('Balance', empty, [])
    await stripe.paymentIntents.create({ amount: 2000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true })
    const balance = await stripe.balance.retrieve()
    expectWhole('Balance', balance, [])
    expect(balance.pending).toEqual([{ amount: 1912, currency: 'usd', source_types: { card: 1912 } }])
    expect(balance.connect_reserved).toEqual([{ amount: 0, currency: 'usd', source_types: { card: 0 } }])
    expect(balance.instant_available).toEqual([{ amount: 0, currency: 'usd', net_available: [], source_types: { card: 0 } }])
    expect(balance.issuing).toEqual({ available: [{ amount: 0, currency: 'usd', source_types: { card: 0 } }] })
  })

  it('retrieves and lists balance transactions with type, source and currency filters', async () => {
    const { stripe } = client()
    const paid = await stripe.paymentIntents.create({
      amount: 2000,
      currency: 'usd',
      payment_method: 'pm_card_bypassPending',
      confirm: true,
    })
    await stripe.refunds.create({ payment_intent: paid.id, amount: 500 })
    const all = await stripe.balanceTransactions.list()
    expect(all.data.map((t) => t.type)).toEqual(['refund', 'charge'])
    for (const t of all.data) expectWhole('BalanceTransaction', t, [])
    const charge = all.data[1] as Stripe.BalanceTransaction
    expect(await stripe.balanceTransactions.retrieve(charge.id)).toEqual(charge)
    expect((await stripe.balanceTransactions.list({ type: 'charge' })).data.map((t) => t.id)).toEqual([charge.id])
    expect((await stripe.balanceTransactions.list({ source: String(charge.source) })).data.map((t) => t.id)).toEqual([charge.id])
    expect((await stripe.balanceTransactions.list({ currency: 'USD' })).data).toHaveLength(2)
    expect((await stripe.balanceTransactions.list({ currency: 'eur' })).data).toEqual([])
    await expect(stripe.balanceTransactions.retrieve('txn_missing')).rejects.toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    })
  })
})
