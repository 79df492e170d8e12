import { describe, expect, it } from 'vitest'
import { setup } from '../accounts/helpers.js'

describe('account external accounts', () => {
  it('adds a test bank account, making it the default and meeting the external_account requirement', async () => {
    const { sim, stripe } = setup(81)
    const account = await stripe.accounts.create({
      type: 'custom',
      country: 'US',
      capabilities: { transfers: { requested: true } },
    })
    expect(account.requirements?.currently_due).toContain('external_account')
    const bank = await stripe.accounts.createExternalAccount(account.id, { external_account: 'btok_us_verified' })
    expect(bank.object).toBe('bank_account')
    expect(bank.default_for_currency).toBe(true)
    expect((bank as any).account).toBe(account.id)
    const after = await stripe.accounts.retrieve(account.id)
    expect(after.requirements?.currently_due).not.toContain('external_account')
    expect(after.external_accounts?.data.map((e) => e.id)).toEqual([bank.id])
    expect(sim.admin.events({ account: account.id }).map((e) => e.type)).toContain('account.external_account.created')
  })

  it('moves the default with default_for_currency, updates, lists by object and deletes a non-default one', async () => {
    const { sim, stripe } = setup(82)
    const account = await stripe.accounts.create({ type: 'custom', country: 'US' })
    const first = await stripe.accounts.createExternalAccount(account.id, { external_account: 'btok_us_verified' })
    const card = await stripe.accounts.createExternalAccount(account.id, { external_account: 'tok_visa_debit' })
    expect(card.object).toBe('card')
    expect(card.default_for_currency).toBe(false)
    const moved = await stripe.accounts.updateExternalAccount(account.id, card.id, {
      default_for_currency: true,
      metadata: { k: 'v' },
    })
    expect(moved.default_for_currency).toBe(true)
    expect(moved.metadata).toEqual({ k: 'v' })
    expect((await stripe.accounts.retrieveExternalAccount(account.id, first.id)).default_for_currency).toBe(false)
    const cards = await stripe.accounts.listExternalAccounts(account.id, { object: 'card' })
    expect(cards.data.map((e) => e.id)).toEqual([card.id])
    const all = await stripe.accounts.listExternalAccounts(account.id)
    expect(all.data).toHaveLength(2)
    const gone = await stripe.accounts.deleteExternalAccount(account.id, first.id)
    expect(gone).toMatchObject({ id: first.id, deleted: true })
    await expect(stripe.accounts.retrieveExternalAccount(account.id, first.id)).rejects.toMatchObject({ statusCode: 404 })
    const types = sim.admin.events({ account: account.id }).map((e) => e.type)
    expect(types).toEqual(expect.arrayContaining(['account.external_account.updated', 'account.external_account.deleted']))
  })

  it('refuses deleting the default of the account currency, a credit card and an unknown token, changing nothing', async () => {
    const { sim, stripe } = setup(83)
    const account = await stripe.accounts.create({ type: 'custom', country: 'US' })
    const bank = await stripe.accounts.createExternalAccount(account.id, { external_account: 'btok_us_verified' })
    const events = sim.admin.events().length
    await expect(stripe.accounts.deleteExternalAccount(account.id, bank.id)).rejects.toMatchObject({ statusCode: 400 })
    await expect(stripe.accounts.createExternalAccount(account.id, { external_account: 'tok_visa' })).rejects.toMatchObject({
      statusCode: 400,
      code: 'invalid_card_type',
    })
    await expect(stripe.accounts.createExternalAccount(account.id, { external_account: 'nope_1' })).rejects.toMatchObject({
      statusCode: 400,
      code: 'resource_missing',
      param: 'external_account',
    })
    expect(sim.admin.events().length).toBe(events)
    expect((await stripe.accounts.listExternalAccounts(account.id)).data.map((e) => e.id)).toEqual([bank.id])
  })

  it('keeps external accounts in their account', async () => {
    const { stripe } = setup(84)
    const a = await stripe.accounts.create({ type: 'custom' })
    const b = await stripe.accounts.create({ type: 'custom' })
    const bank = await stripe.accounts.createExternalAccount(a.id, { external_account: 'btok_us_verified' })
    await expect(stripe.accounts.retrieveExternalAccount(b.id, bank.id)).rejects.toMatchObject({ statusCode: 404 })
  })
})
