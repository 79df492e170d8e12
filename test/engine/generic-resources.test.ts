import { describe, expect, it } from 'vitest'
import { setup } from './helpers.js'

describe('resources nobody declared by hand are served from catalogue data', () => {
  it('creates, retrieves, lists, updates and deletes an issuing cardholder with its provider id prefix', async () => {
    const { stripe } = setup()
    const holder = await stripe.issuing.cardholders.create({
      name: 'Jenny Rosen',
      billing: { address: { line1: '1 Main', city: 'SF', postal_code: '94111', country: 'US' } },
      metadata: { team: 'ops' },
    })
    expect(holder).toMatchObject({ object: 'issuing.cardholder', name: 'Jenny Rosen', metadata: { team: 'ops' } })
    expect(holder.id).toMatch(/^ich_/)
    expect(await stripe.issuing.cardholders.retrieve(holder.id)).toEqual(holder)
    const updated = await stripe.issuing.cardholders.update(holder.id, { metadata: { team: '' } })
    expect(updated.metadata).toEqual({})
    const card = await stripe.issuing.cards.create({ cardholder: holder.id, currency: 'usd', type: 'virtual' })
    expect(card.id).toMatch(/^ic_/)
    const listed = await stripe.issuing.cards.list({ cardholder: holder.id })
    expect(listed.data.map((c) => c.id)).toEqual([card.id])
    expect((await stripe.issuing.cards.list({ type: 'physical' })).data).toEqual([])
  })

  it('refuses a param naming a missing object with 400 resource_missing and creates nothing', async () => {
    const { stripe } = setup()
    await expect(
      stripe.issuing.cards.create({ cardholder: 'ich_missing', currency: 'usd', type: 'virtual' }),
    ).rejects.toMatchObject({
      statusCode: 400,
      code: 'resource_missing',
      param: 'cardholder',
    })
    expect((await stripe.issuing.cards.list()).data).toEqual([])
  })

  it('moves a treasury inbound transfer by its test helpers and emits the documented events', async () => {
    const { sim, stripe } = setup()
    const account = await stripe.treasury.financialAccounts.create({ supported_currencies: ['usd'] })
    const transfer = await stripe.treasury.inboundTransfers.create({
      financial_account: account.id,
      amount: 1000,
      currency: 'usd',
      origin_payment_method: 'pm_x',
    })
    expect(transfer.id).toMatch(/^ibt_/)
    const done = await stripe.testHelpers.treasury.inboundTransfers.succeed(transfer.id)
    expect(done.status).toBe('succeeded')
    expect((await stripe.treasury.inboundTransfers.retrieve(transfer.id)).status).toBe('succeeded')
    const [event] = sim.admin.events({ type: 'treasury.inbound_transfer.succeeded' })
    expect((event?.body.data as { object: { id: string } } | undefined)?.object.id).toBe(transfer.id)
    const canceled = await stripe.treasury.inboundTransfers.create({
      financial_account: account.id,
      amount: 500,
      currency: 'usd',
      origin_payment_method: 'pm_x',
    })
    expect((await stripe.treasury.inboundTransfers.cancel(canceled.id)).status).toBe('canceled')
    expect(sim.admin.events({ type: 'treasury.inbound_transfer.canceled' })).toHaveLength(1)
  })

  it('answers an action on a missing object 404 resource_missing', async () => {
    const { stripe } = setup()
    await expect(stripe.testHelpers.treasury.inboundTransfers.succeed('ibt_missing')).rejects.toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    })
  })

  it('presents a card to a terminal reader: the action in progress succeeds with terminal.reader.action_succeeded', async () => {
    const { sim, stripe } = setup()
    const location = await stripe.terminal.locations.create({
      display_name: 'Shop',
      address: { line1: '1 Main', city: 'SF', postal_code: '94111', country: 'US', state: 'CA' },
    })
    const reader = await stripe.terminal.readers.create({ registration_code: 'simulated-wpe', location: location.id })
    expect(reader.id).toMatch(/^tmr_/)
    const pi = await stripe.paymentIntents.create({ amount: 1000, currency: 'usd' })
    const working = await stripe.terminal.readers.processPaymentIntent(reader.id, { payment_intent: pi.id })
    expect(working.action).toMatchObject({ type: 'process_payment_intent', status: 'in_progress' })
    const presented = await stripe.testHelpers.terminal.readers.presentPaymentMethod(reader.id)
    expect(presented.action).toMatchObject({ type: 'process_payment_intent', status: 'succeeded' })
    expect(sim.admin.events({ type: 'terminal.reader.action_succeeded' })).toHaveLength(1)
  })

  it('serves children under a parent that must exist (404 on a missing parent)', async () => {
    const { stripe } = setup()
    const list = await stripe.radar.valueLists.create({ alias: 'blocked', name: 'Blocked' })
    const item = await stripe.radar.valueListItems.create({ value_list: list.id, value: 'a@example.com' })
    expect((await stripe.radar.valueListItems.list({ value_list: list.id })).data.map((i) => i.id)).toEqual([item.id])
    const { sim, key } = setup()
    const res = await sim.fetch('https://api.stripe.com/v1/credit_notes/cn_missing/lines', {
      headers: { Authorization: `Bearer ${key}` },
    })
    expect(res.status).toBe(404)
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('resource_missing')
  })
})

describe('file uploads', () => {
  it('serves files.create with multipart/form-data through the official client and keeps the metadata', async () => {
    const { stripe } = setup()
    const bytes = Buffer.from([0x25, 0x50, 0x44, 0x46, 0xff, 0x00, 0x80, 0x0a])
    const file = await stripe.files.create({
      purpose: 'dispute_evidence',
      file: { data: bytes, name: 'evidence.pdf', type: 'application/pdf' },
    })
    expect(file).toMatchObject({ object: 'file', purpose: 'dispute_evidence', filename: 'evidence.pdf', size: 8, type: 'pdf' })
    expect(file.id).toMatch(/^file_/)
    expect(await stripe.files.retrieve(file.id)).toEqual(file)
    expect((await stripe.files.list({ purpose: 'dispute_evidence' })).data.map((f) => f.id)).toEqual([file.id])
  })

  it('refuses an upload without a documented purpose and keeps nothing', async () => {
    const { stripe } = setup()
    await expect(
      stripe.files.create({
        purpose: 'nope' as 'dispute_evidence',
        file: { data: Buffer.from('x'), name: 'x.txt', type: 'text/plain' },
      }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'purpose' })
    expect((await stripe.files.list()).data).toEqual([])
  })
})
