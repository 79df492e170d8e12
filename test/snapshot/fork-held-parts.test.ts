import { describe, expect, it } from 'vitest'
import { createSimulator, type Simulator } from '../../src/index.js'
import { call } from './helpers.js'

// A fork makes an engine resource only when its run first uses it; until then the fork holds the
// resource's objects for it. Nothing of that may show: lookups, expansion, snapshots and forks of
// forks see every object the original had.

async function prepared() {
  const sim = createSimulator({ seed: 5 })
  const customer = (await call(sim, 'POST', '/v1/customers', 'name=ann')).json
  const pm = (await call(sim, 'POST', '/v1/payment_methods/pm_card_visa/attach', `customer=${customer.id}`)).json
  await call(sim, 'POST', `/v1/customers/${customer.id}`, `invoice_settings[default_payment_method]=${pm.id}`)
  const product = (await call(sim, 'POST', '/v1/products', 'name=plan')).json
  await sim.settle()
  return { sim, customer: String(customer.id), pm: String(pm.id), product: String(product.id) }
}

describe('fork: resources made on first use', () => {
  it('saves every resource of its original, in the same order, before its run touches any', async () => {
    const { sim } = await prepared()
    const fork = sim.fork()
    expect(JSON.stringify(fork.snapshot().state)).toBe(JSON.stringify(sim.snapshot().state))
    const again = fork.fork().fork()
    expect(JSON.stringify(again.snapshot().state)).toBe(JSON.stringify(sim.snapshot().state))
  })

  it('expands a field naming an object of a resource it has not used yet', async () => {
    const { sim, customer, pm } = await prepared()
    const fork = sim.fork()
    const shown = await call(fork, 'GET', `/v1/customers/${customer}?expand[]=invoice_settings.default_payment_method`)
    expect(shown.status).toBe(200)
    const settings = shown.json.invoice_settings as { default_payment_method: { id: string; object: string } }
    expect(settings.default_payment_method.id).toBe(pm)
    expect(settings.default_payment_method.object).toBe('payment_method')
  })

  it('keeps a fork and its original apart when both change an object the fork had not used', async () => {
    const { sim, product } = await prepared()
    const fork = sim.fork()
    expect((await call(fork, 'POST', `/v1/products/${product}`, 'name=fork')).status).toBe(200)
    expect((await call(sim, 'POST', `/v1/products/${product}`, 'name=original')).status).toBe(200)
    const second = sim.fork()
    expect((await call(fork, 'GET', `/v1/products/${product}`)).json.name).toBe('fork')
    expect((await call(sim, 'GET', `/v1/products/${product}`)).json.name).toBe('original')
    expect((await call(second, 'GET', `/v1/products/${product}`)).json.name).toBe('original')
  })

  it('carries the objects of an unused resource through a JSON snapshot of the fork', async () => {
    const { sim, product } = await prepared()
    const loaded = createSimulator({ from: JSON.parse(JSON.stringify(sim.fork().snapshot())) })
    const shown = await call(loaded, 'GET', `/v1/products/${product}`)
    expect(shown.status).toBe(200)
    expect(shown.json.name).toBe('plan')
  })
})

describe('fork: stores shared until changed', () => {
  const names = async (sim: Simulator) =>
    ((await call(sim, 'GET', '/v1/products?limit=100')).json.data as { name: string }[]).map((p) => p.name)

  it('lists, creates and deletes on each side without the other seeing it', async () => {
    const { sim, product } = await prepared()
    const a = sim.fork()
    const b = sim.fork()
    expect((await call(a, 'POST', '/v1/products', 'name=only-a')).status).toBe(200)
    expect((await call(b, 'DELETE', `/v1/products/${product}`)).status).toBe(200)
    expect((await call(sim, 'POST', '/v1/products', 'name=only-original')).status).toBe(200)
    expect(await names(a)).toEqual(['only-a', 'plan'])
    expect(await names(b)).toEqual([])
    expect(await names(sim)).toEqual(['only-original', 'plan'])
    expect((await call(b, 'GET', `/v1/products/${product}`)).status).toBe(404)
    expect((await call(a, 'GET', `/v1/products/${product}`)).status).toBe(200)
  })

  it('gives a fork of a fork the state of its parent at the fork, whatever either does next', async () => {
    const { sim } = await prepared()
    const a = sim.fork()
    await call(a, 'POST', '/v1/products', 'name=first')
    const b = a.fork()
    await call(a, 'POST', '/v1/products', 'name=second')
    await call(b, 'POST', '/v1/products', 'name=in-b')
    const c = b.fork()
    expect(await names(a)).toEqual(['second', 'first', 'plan'])
    expect(await names(b)).toEqual(['in-b', 'first', 'plan'])
    expect(await names(c)).toEqual(['in-b', 'first', 'plan'])
    expect(await names(sim)).toEqual(['plan'])
  })
})
