import { describe, expect, it } from 'vitest'
import { setup } from '../accounts/helpers.js'

describe('account persons', () => {
  it('creates, retrieves, updates, lists and deletes a person of a connected account', async () => {
    const { sim, stripe } = setup(71)
    const account = await stripe.accounts.create({
      type: 'custom',
      country: 'US',
      capabilities: { transfers: { requested: true } },
    })
    const person = await stripe.accounts.createPerson(account.id, {
      first_name: 'Jane',
      last_name: 'Doe',
      email: 'jane@example.com',
      ssn_last_4: '0000',
      relationship: { representative: true, title: 'CEO' },
    })
    expect(person.object).toBe('person')
    expect(person.account).toBe(account.id)
    expect(person.ssn_last_4_provided).toBe(true)
    expect(person.relationship?.representative).toBe(true)
    expect('ssn_last_4' in person).toBe(false)
    expect((await stripe.accounts.retrievePerson(account.id, person.id)).first_name).toBe('Jane')
    const updated = await stripe.accounts.updatePerson(account.id, person.id, { phone: '+15555550100' })
    expect(updated.phone).toBe('+15555550100')
    const list = await stripe.accounts.listPersons(account.id)
    expect(list.data.map((p) => p.id)).toEqual([person.id])
    const gone = await stripe.accounts.deletePerson(account.id, person.id)
    expect(gone.deleted).toBe(true)
    await expect(stripe.accounts.retrievePerson(account.id, person.id)).rejects.toMatchObject({ statusCode: 404 })
    const types = sim.admin.events({ account: account.id }).map((e) => e.type)
    expect(types).toEqual(expect.arrayContaining(['person.created', 'person.updated', 'person.deleted']))
  })

  it('refuses a bad email with 400 and creates nothing', async () => {
    const { stripe } = setup(72)
    const account = await stripe.accounts.create({ type: 'custom' })
    await expect(stripe.accounts.createPerson(account.id, { email: 'not-an-email' })).rejects.toMatchObject({ statusCode: 400 })
    expect((await stripe.accounts.listPersons(account.id)).data).toEqual([])
  })

  it('keeps persons in their account: another connected account does not see them', async () => {
    const { stripe } = setup(73)
    const a = await stripe.accounts.create({ type: 'custom' })
    const b = await stripe.accounts.create({ type: 'custom' })
    const person = await stripe.accounts.createPerson(a.id, { first_name: 'A' })
    await expect(stripe.accounts.retrievePerson(b.id, person.id)).rejects.toMatchObject({ statusCode: 404 })
    expect((await stripe.accounts.listPersons(b.id)).data).toEqual([])
  })
})
