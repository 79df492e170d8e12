import { describe, expect, it } from 'vitest'
import { collect, destination, ENDPOINT_KINDS, setup } from './helpers.js'

describe('routing', () => {
  it('routes by events_from: @self gets own events, @accounts those of connected accounts', async () => {
    const { sim, stripe } = setup()
    const connected = sim.admin.createAccount()
    await destination(stripe, { url: 'https://h.test/self', events_from: ['@self'] })
    await destination(stripe, { url: 'https://h.test/accounts', events_from: ['@accounts'] })
    const self = collect(sim, 'https://h.test/self')
    const accounts = collect(sim, 'https://h.test/accounts')
    const own = sim.admin.trigger('customer.created', { synthetic: true })
    const theirs = sim.admin.trigger('customer.created', { synthetic: true, account: connected.id })
    await sim.settle()
    expect(self.map((x) => JSON.parse(x.raw).id)).toEqual([own.id])
    expect(accounts.map((x) => JSON.parse(x.raw).id)).toEqual([theirs.id])
    expect(JSON.parse(accounts[0]!.raw).account).toBe(connected.id)
  })

  it('routes organisation scopes to members and to the connected accounts of members', async () => {
    const { sim, stripe } = setup()
    const otherPlatform = sim.service.accounts.create({})
    const theirConnected = sim.service.accounts.create({ platform: otherPlatform.id })
    const outsider = sim.service.accounts.create({})
    sim.admin.createOrganisation({ accounts: [sim.platform.id, otherPlatform.id] })
    await destination(stripe, { url: 'https://h.test/members', events_from: ['@organization_members'] })
    await destination(stripe, { url: 'https://h.test/members-accounts', events_from: ['@organization_members/@accounts'] })
    const members = collect(sim, 'https://h.test/members')
    const membersAccounts = collect(sim, 'https://h.test/members-accounts')
    const a = sim.admin.trigger('invoice.paid', { synthetic: true, account: otherPlatform.id })
    const b = sim.admin.trigger('invoice.paid', { synthetic: true, account: theirConnected.id })
    sim.admin.trigger('invoice.paid', { synthetic: true, account: outsider.id })
    await sim.settle()
    expect(members.map((x) => JSON.parse(x.raw).id)).toEqual([a.id])
    expect(JSON.parse(members[0]!.raw).context).toBe(otherPlatform.id)
    expect(membersAccounts.map((x) => JSON.parse(x.raw).id)).toEqual([b.id])
  })

  it('routes by mode and by enabled_events, with * matching every type', async () => {
    const { sim, stripe, live } = setup()
    await destination(stripe, { url: 'https://h.test/paid', enabled_events: ['invoice.paid'] })
    await destination(stripe, { url: 'https://h.test/all', enabled_events: ['*'] })
    await destination(live, { url: 'https://h.test/live', enabled_events: ['*'] })
    const paid = collect(sim, 'https://h.test/paid')
    const all = collect(sim, 'https://h.test/all')
    const liveGot = collect(sim, 'https://h.test/live')
    sim.admin.trigger('invoice.paid', { synthetic: true })
    sim.admin.trigger('charge.created', { synthetic: true })
    sim.admin.trigger('charge.created', { synthetic: true, mode: 'live' })
    await sim.settle()
    expect(paid.map((x) => JSON.parse(x.raw).type)).toEqual(['invoice.paid'])
    expect(all.map((x) => JSON.parse(x.raw).type)).toEqual(['invoice.paid', 'charge.created'])
    expect(liveGot.map((x) => JSON.parse(x.raw).livemode)).toEqual([true])
  })

  it('stops routing to a destination once enabled_events is updated or it is disabled', async () => {
    const { sim, stripe } = setup()
    const { id } = await destination(stripe, { url: 'https://h.test/a', enabled_events: ['invoice.paid'] })
    const got = collect(sim, 'https://h.test/a')
    await stripe.v2.core.eventDestinations.update(id, { enabled_events: ['charge.created'] })
    sim.admin.trigger('invoice.paid', { synthetic: true })
    sim.admin.trigger('charge.created', { synthetic: true })
    await sim.settle()
    await stripe.v2.core.eventDestinations.disable(id)
    sim.admin.trigger('charge.created', { synthetic: true })
    await sim.settle()
    expect(got.map((x) => JSON.parse(x.raw).type)).toEqual(['charge.created'])
  })

  it('keeps the event structure of the version in force when the event occurred', async () => {
    const { sim, stripe } = setup()
    await destination(stripe, { url: 'https://h.test/a' })
    const got = collect(sim, 'https://h.test/a')
    sim.admin.trigger('customer.created', { synthetic: true })
    await sim.settle()
    sim.admin.setApiVersion(sim.platform.id, '2027-01-01.preview')
    sim.admin.trigger('customer.created', { synthetic: true })
    await sim.settle()
    expect(got.map((x) => JSON.parse(x.raw).api_version)).toEqual(['2026-10-28.endive', '2027-01-01.preview'])
  })

  it('creates a realistic event for every type the spec names', async () => {
    const { sim, stripe } = setup()
    await destination(stripe, { url: 'https://h.test/a' })
    await destination(stripe, { url: 'https://h.test/t', event_payload: 'thin' })
    const snap = collect(sim, 'https://h.test/a')
    const types = [
      'payment_intent.succeeded',
      'payment_intent.payment_failed',
      'payment_method.attached',
      'customer.created',
      'customer.subscription.created',
      'invoice.created',
      'invoice.paid',
      'charge.created',
      'checkout_sessions.completed',
    ]
    for (const t of types) sim.admin.trigger(t, { synthetic: true })
    await sim.settle()
    const objects = snap.map((x) => JSON.parse(x.raw).data.object.object)
    expect(objects).toEqual([
      'payment_intent',
      'payment_intent',
      'payment_method',
      'customer',
      'subscription',
      'invoice',
      'invoice',
      'charge',
      'checkout.session',
    ])
    expect(sim.admin.trigger('customer.created', { object: { email: 'x@y.z' } }).body).toMatchObject({
      data: { object: { email: 'x@y.z' } },
    })
    expect(() => sim.admin.trigger('Not a type', { synthetic: true })).toThrow(TypeError)
  })
})

describe('destination API versions', () => {
  it('structures snapshot events for a pinned snapshot_api_version without changing the stored event', async () => {
    const { sim, stripe } = setup()
    await destination(stripe, { url: 'https://h.test/pinned', snapshot_api_version: '2025-01-27.acacia' })
    const plain = await destination(stripe, { url: 'https://h.test/plain' })
    const pinnedGot = collect(sim, 'https://h.test/pinned')
    const plainGot = collect(sim, 'https://h.test/plain')
    const evt = sim.admin.trigger('customer.created', { synthetic: true })
    await sim.settle()
    expect(JSON.parse(pinnedGot[0]!.raw).api_version).toBe('2025-01-27.acacia')
    expect(JSON.parse(plainGot[0]!.raw).api_version).toBe('2026-10-28.endive')
    expect(evt.body.api_version).toBe('2026-10-28.endive')
    const shown = await stripe.v2.core.eventDestinations.retrieve(plain.id)
    expect(shown.snapshot_api_version).toBe('2026-10-28.endive')
  })
})

describe.each(ENDPOINT_KINDS)('routing to a $name', (kind) => {
  it("routes the owner's own events to a plain endpoint and connected accounts' events to a connect one", async () => {
    const { sim, stripe } = setup()
    const connected = sim.admin.createAccount()
    await kind.make(stripe, { url: 'https://h.test/self' })
    await kind.make(stripe, { url: 'https://h.test/accounts', connect: true })
    const self = collect(sim, 'https://h.test/self')
    const accounts = collect(sim, 'https://h.test/accounts')
    const own = sim.admin.trigger('customer.created', { synthetic: true })
    const theirs = sim.admin.trigger('customer.created', { synthetic: true, account: connected.id })
    await sim.settle()
    expect(self.map((x) => JSON.parse(x.raw).id)).toEqual([own.id])
    expect(accounts.map((x) => JSON.parse(x.raw).id)).toEqual([theirs.id])
    expect(JSON.parse(accounts[0]!.raw).account).toBe(connected.id)
  })

  it('routes by mode and by enabled_events, stops on an update of the list and while disabled', async () => {
    const { sim, stripe, live } = setup()
    const { id } = await kind.make(stripe, { url: 'https://h.test/a', enabled_events: ['invoice.paid'] })
    await kind.make(live, { url: 'https://h.test/live', enabled_events: ['*'] })
    const got = collect(sim, 'https://h.test/a')
    const liveGot = collect(sim, 'https://h.test/live')
    sim.admin.trigger('invoice.paid', { synthetic: true })
    sim.admin.trigger('charge.refunded', { synthetic: true })
    await sim.settle()
    await kind.setEvents(stripe, id, ['charge.refunded'])
    sim.admin.trigger('invoice.paid', { synthetic: true })
    sim.admin.trigger('charge.refunded', { synthetic: true })
    await sim.settle()
    await kind.setDisabled(stripe, id, true)
    sim.admin.trigger('charge.refunded', { synthetic: true })
    await sim.settle()
    expect(got.map((x) => JSON.parse(x.raw).type)).toEqual(['invoice.paid', 'charge.refunded'])
    expect(liveGot).toHaveLength(0)
    expect(sim.admin.deliveries({ destination: id })).toHaveLength(2)
    await kind.setDisabled(stripe, id, false)
    sim.admin.trigger('charge.refunded', { synthetic: true })
    await sim.settle()
    expect(got).toHaveLength(3)
  })

  it("sends events structured for a pinned version, else for the account's version when each occurred", async () => {
    const { sim, stripe } = setup()
    await kind.make(stripe, { url: 'https://h.test/pinned', apiVersion: '2025-01-27.acacia' })
    await kind.make(stripe, { url: 'https://h.test/plain' })
    const pinnedGot = collect(sim, 'https://h.test/pinned')
    const plainGot = collect(sim, 'https://h.test/plain')
    const evt = sim.admin.trigger('customer.created', { synthetic: true })
    await sim.settle()
    sim.admin.setApiVersion(sim.platform.id, '2027-01-01.preview')
    sim.admin.trigger('customer.created', { synthetic: true })
    await sim.settle()
    const pinned = pinnedGot.map((x) => JSON.parse(x.raw))
    expect(pinned.map((e) => e.api_version)).toEqual(['2025-01-27.acacia', '2025-01-27.acacia'])
    expect(pinned[0]).toEqual(
      sim.service.events.bodyAt(sim.service.events.all().find((e) => e.id === evt.id)!, '2025-01-27.acacia'),
    )
    expect(plainGot.map((x) => JSON.parse(x.raw).api_version)).toEqual(['2026-10-28.endive', '2027-01-01.preview'])
    expect(evt.body.api_version).toBe('2026-10-28.endive')
  })
})
