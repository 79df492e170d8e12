import { describe, expect, it } from 'vitest'
import { dataOf, setup } from '../accounts/helpers.js'

describe('account capabilities', () => {
  it('requests and unrequests a capability, emitting capability.updated with what changed', async () => {
    const { sim, stripe } = setup(91)
    const account = await stripe.accounts.create({ type: 'custom', country: 'US' })
    const asked = await stripe.accounts.updateCapability(account.id, 'card_payments', { requested: true })
    expect(asked).toMatchObject({ id: 'card_payments', object: 'capability', requested: true, status: 'inactive' })
    const listed = await stripe.accounts.listCapabilities(account.id)
    expect(listed.data.find((c) => c.id === 'card_payments')?.requested).toBe(true)
    const dropped = await stripe.accounts.updateCapability(account.id, 'card_payments', { requested: false })
    expect(dropped.status).toBe('unrequested')
    const events = sim.admin.events({ account: account.id, type: 'capability.updated' })
    expect(events).toHaveLength(2)
    expect(dataOf(events[0]).previous_attributes).toMatchObject({ requested: false, status: 'unrequested' })
  })

  it('emits nothing when the request changes nothing, and refuses an unknown capability with 404', async () => {
    const { sim, stripe } = setup(92)
    const account = await stripe.accounts.create({ type: 'custom', capabilities: { transfers: { requested: true } } })
    await stripe.accounts.updateCapability(account.id, 'transfers', { requested: true })
    expect(sim.admin.events({ account: account.id, type: 'capability.updated' })).toHaveLength(0)
    await expect(stripe.accounts.updateCapability(account.id, 'teleportation', { requested: true })).rejects.toMatchObject({
      statusCode: 404,
    })
  })
})

describe('login links', () => {
  it('makes a login link for an Express account', async () => {
    const { stripe } = setup(93)
    const account = await stripe.accounts.create({ type: 'express' })
    const link = await stripe.accounts.createLoginLink(account.id)
    expect(link.object).toBe('login_link')
    expect(link.url).toMatch(new RegExp(`^https://connect\\.stripe\\.com/express/${account.id}/`))
  })

  it('refuses a login link for a custom account with 400', async () => {
    const { stripe } = setup(94)
    const account = await stripe.accounts.create({ type: 'custom' })
    await expect(stripe.accounts.createLoginLink(account.id)).rejects.toMatchObject({ statusCode: 400 })
  })
})
