import Stripe from 'stripe'
import { createSimulator } from './src/index.js'
import { shapeProblems } from './test/engine/shape-check.js'
const sim = createSimulator({ seed: 1, headerPrefix: 'Stripe', limits: false })
const stripe = new Stripe(sim.platform.secretKey.test, { httpClient: Stripe.createFetchHttpClient(sim.fetch), maxNetworkRetries: 0 })
const t = async (f: () => Promise<unknown>) => { try { return await f() } catch (e) { console.log('ERR', (e as Error).message) } }
const bpc = await t(() => stripe.billingPortal.configurations.create({ features: { invoice_history: { enabled: true } } })) as any
console.log(bpc?.id); await t(() => stripe.billingPortal.configurations.retrieve(bpc.id))
await t(() => stripe.billingPortal.configurations.update(bpc.id, { metadata: { a: 'b' } }))
const calc = await t(() => stripe.tax.calculations.create({ currency: 'usd', line_items: [{ amount: 100, reference: 'x' }], customer_details: { address: { country: 'US' } } })) as any
const tx = await t(() => stripe.tax.transactions.createFromCalculation({ calculation: calc.id, reference: 'r' })) as any
console.log('tx', tx?.id, tx?.object)
const pf = await t(() => stripe.entitlements.features.create({ name: 'f', lookup_key: 'f' })) as any
const prod = await stripe.products.create({ name: 'p' })
const pfe = await t(() => stripe.products.createFeature(prod.id, { entitlement_feature: pf.id })) as any
console.log(JSON.stringify(shapeProblems('ProductFeature', JSON.parse(JSON.stringify(pfe)))))
const reg = await t(() => stripe.tax.registrations.create({ country: 'US', country_options: { us: { state: 'CA', type: 'state_sales_tax' } }, active_from: 'now' })) as any
console.log(JSON.stringify(shapeProblems('Tax.Registration', JSON.parse(JSON.stringify(reg)))))
