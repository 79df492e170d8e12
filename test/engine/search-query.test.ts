import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { setup } from '../accounts/helpers.js'

type Refusal = { statusCode?: number; type?: string; code?: string; param?: string; message?: string }

async function refusal(p: Promise<unknown>): Promise<Refusal | undefined> {
  return p.then(
    () => undefined,
    (e: Refusal) => e,
  )
}

async function ids(p: Promise<Stripe.ApiSearchResult<{ id: string }>>): Promise<string[]> {
  return (await p).data.map((o) => o.id)
}

describe("search accepts only the provider's documented query fields per resource", () => {
  it('refuses a field the object has but the search does not document, with 400 on query', async () => {
    const { stripe } = setup()
    await stripe.customers.create({ email: 'ada@example.com', description: 'first' })
    const error = await refusal(stripe.customers.search({ query: "description:'first'" }))
    expect(error).toMatchObject({ statusCode: 400, type: 'StripeInvalidRequestError', code: 'parameter_invalid', param: 'query' })
    expect(error?.message).toContain('Field `description` is an unsupported search field for resource `customers`.')
    expect(error?.message).toContain('https://stripe.com/docs/search#query-fields-for-customers')
  })

  it.each([
    ['charges', "captured:'true'"],
    ['invoices', "description:'x'"],
    ['paymentIntents', "description:'x'"],
    ['prices', "nickname:'x'"],
    ['products', "statement_descriptor:'x'"],
    ['subscriptions', "customer:'cus_1'"],
  ] as const)('refuses an undocumented field of %s', async (resource, query) => {
    const { stripe } = setup()
    const search = (stripe[resource] as unknown as { search(p: { query: string }): Promise<unknown> }).search
    const error = await refusal(search.call(stripe[resource], { query }))
    expect(error).toMatchObject({ statusCode: 400, code: 'parameter_invalid', param: 'query' })
    expect(error?.message).toContain('is an unsupported search field')
  })

  it('finds charges by card last4 (unquoted), brand, amount range, currency and refunded', async () => {
    const { stripe } = setup()
    const charge = await stripe.charges.create({ amount: 2500, currency: 'usd', source: 'tok_visa' }).catch(async () => {
      const pi = await stripe.paymentIntents.create({
        amount: 2500,
        currency: 'usd',
        payment_method: 'pm_card_visa',
        confirm: true,
      })
      return stripe.charges.retrieve(pi.latest_charge as string)
    })
    expect(await ids(stripe.charges.search({ query: 'payment_method_details.card.last4:4242' }))).toEqual([charge.id])
    expect(await ids(stripe.charges.search({ query: "payment_method_details.card.brand:'visa' AND amount>=2500" }))).toEqual([
      charge.id,
    ])
    expect(await ids(stripe.charges.search({ query: 'amount<2500' }))).toEqual([])
    expect(await ids(stripe.charges.search({ query: "currency:'USD' refunded:'false'" }))).toEqual([charge.id])
    expect(await ids(stripe.charges.search({ query: 'refunded:true' }))).toEqual([])
    expect(await ids(stripe.charges.search({ query: "-status:'succeeded'" }))).toEqual([])
  })

  it('finds products by active and by a substring of their name, prices by product and type', async () => {
    const { stripe } = setup()
    const pro = await stripe.products.create({ name: 'Professional plan' })
    await stripe.products.create({ name: 'Basic', active: false })
    const price = await stripe.prices.create({ product: pro.id, unit_amount: 100, currency: 'eur' })
    expect(await ids(stripe.products.search({ query: "name~'fession'" }))).toEqual([pro.id])
    expect(await ids(stripe.products.search({ query: "active:'true'" }))).toEqual([pro.id])
    expect(await ids(stripe.prices.search({ query: `product:'${pro.id}' AND type:'one_time'` }))).toEqual([price.id])
    // A token compares exactly, case included.
    expect(await ids(stripe.prices.search({ query: "type:'ONE_TIME'" }))).toEqual([])
  })

  it('finds subscriptions by status and created, and payment intents by status and customer', async () => {
    const { stripe } = setup()
    const customer = await stripe.customers.create({})
    const price = await stripe.prices.create({
      unit_amount: 500,
      currency: 'usd',
      recurring: { interval: 'month' },
      product_data: { name: 'P' },
    })
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: price.id }],
      payment_behavior: 'default_incomplete',
    })
    expect(await ids(stripe.subscriptions.search({ query: `status:'${sub.status}' AND created>0` }))).toEqual([sub.id])
    // The period is read where the current subscription keeps it: on its items.
    const end = sub.items.data[0]?.current_period_end as number
    expect(await ids(stripe.subscriptions.search({ query: `current_period_end:${end}` }))).toEqual([sub.id])
    expect(await ids(stripe.subscriptions.search({ query: `current_period_end>${end}` }))).toEqual([])
    const pi = await stripe.paymentIntents.create({ amount: 700, currency: 'usd', customer: customer.id })
    expect(
      await ids(
        stripe.paymentIntents.search({ query: `customer:'${customer.id}' AND status:'requires_payment_method' AND amount:700` }),
      ),
    ).toContain(pi.id)
  })
})

describe('search query grammar', () => {
  it('joins clauses separated by a bare space with AND, and takes and/or in any case', async () => {
    const { stripe } = setup()
    const a = await stripe.customers.create({ email: 'a@example.com', name: 'Ann' })
    const b = await stripe.customers.create({ email: 'b@example.com', name: 'Bob' })
    expect(await ids(stripe.customers.search({ query: "email:'a@example.com' name:'Bob'" }))).toEqual([])
    expect(await ids(stripe.customers.search({ query: "email:'a@example.com' or name:'Bob'" }))).toEqual([b.id, a.id])
    expect(await ids(stripe.customers.search({ query: 'email:"a@example.com" and name:"ann"' }))).toEqual([a.id])
  })

  it('refuses a query that mixes AND and OR', async () => {
    const { stripe } = setup()
    const error = await refusal(stripe.customers.search({ query: "name:'a' AND email:'b' OR phone:'c'" }))
    expect(error).toMatchObject({ statusCode: 400, param: 'query', message: 'Search queries cannot mix AND and OR.' })
  })

  it('allows ~ only on fields that take substrings, and only with three characters or more', async () => {
    const { stripe } = setup()
    const onToken = await refusal(stripe.charges.search({ query: "status~'succ'" }))
    expect(onToken).toMatchObject({ statusCode: 400, param: 'query' })
    expect(onToken?.message).toContain('does not support substring matching')
    const short = await refusal(stripe.customers.search({ query: "name~'ab'" }))
    expect(short?.message).toContain('shorter than 3 characters')
  })

  it('allows >, <, >=, <= only on numeric fields, and a number there', async () => {
    const { stripe } = setup()
    const onString = await refusal(stripe.customers.search({ query: "email>'a'" }))
    expect(onString).toMatchObject({ statusCode: 400, param: 'query' })
    expect(onString?.message).toContain('Field `email` of resource `customers` is a string field')
    const notNumber = await refusal(stripe.charges.search({ query: "amount>'lots'" }))
    expect(notNumber?.message).toContain('non-numeric value `lots`')
  })

  it('refuses an unquoted word, a dangling join and an unclosed quote with 400 on query', async () => {
    const { stripe } = setup()
    for (const query of ['email:ada', "email:'a' AND", "email:'a", "metadata['k':'v'", ':x']) {
      const error = await refusal(stripe.customers.search({ query }))
      expect(error, query).toMatchObject({ statusCode: 400, code: 'parameter_invalid', param: 'query' })
      expect(error?.message, query).toMatch(/^Invalid search query: /)
    }
  })

  it('refuses more than ten clauses', async () => {
    const { stripe } = setup()
    const query = Array.from({ length: 11 }, (_, i) => `metadata['k${i}']:'v'`).join(' AND ')
    const error = await refusal(stripe.customers.search({ query }))
    expect(error?.message).toContain('at most 10 clauses')
  })

  it('matches metadata exactly (case included) and null as absence; negated null as presence', async () => {
    const { stripe } = setup()
    const tagged = await stripe.customers.create({ metadata: { plan: 'Pro' } })
    const plain = await stripe.customers.create({})
    expect(await ids(stripe.customers.search({ query: 'metadata["plan"]:"Pro"' }))).toEqual([tagged.id])
    expect(await ids(stripe.customers.search({ query: "metadata['plan']:'pro'" }))).toEqual([])
    expect(await ids(stripe.customers.search({ query: "metadata['plan']:null" }))).toEqual([plain.id])
    expect(await ids(stripe.customers.search({ query: "-metadata['plan']:null" }))).toEqual([tagged.id])
    expect(await ids(stripe.customers.search({ query: 'phone:null' }))).toEqual([plain.id, tagged.id])
  })

  it('reads an escaped quote inside a quoted value', async () => {
    const { stripe } = setup()
    const c = await stripe.customers.create({ name: "O'Hara" })
    expect(await ids(stripe.customers.search({ query: "name:'O\\'Hara'" }))).toEqual([c.id])
  })

  it("pages with next_page, and refuses a page of another query's results", async () => {
    const { stripe } = setup()
    const made: string[] = []
    for (let i = 0; i < 3; i++) made.push((await stripe.customers.create({ metadata: { batch: '1' } })).id)
    const first = await stripe.customers.search({ query: "metadata['batch']:'1'", limit: 2 })
    expect(first.has_more).toBe(true)
    const second = await stripe.customers.search({ query: "metadata['batch']:'1'", limit: 2, page: first.next_page as string })
    expect([...first.data, ...second.data].map((c) => c.id)).toEqual(made.reverse())
    expect(second.next_page).toBeNull()
    const error = await refusal(stripe.customers.search({ query: "metadata['batch']:'2'", page: first.next_page as string }))
    expect(error).toMatchObject({ statusCode: 400, param: 'page' })
  })
})
