// One cold start of service-sim as a user's test file pays it: import the built package (dist/),
// make a simulator, create a customer through sim.fetch. Run in a fresh node process by
// bench/cold-start.bench.ts; prints the customer id so the bench can check the work was done.
import { createSimulator } from '../../dist/index.js'

const sim = createSimulator({ seed: 1 })
const res = await sim.fetch('https://api.example.test/v1/customers', {
  method: 'POST',
  headers: {
    Authorization: `Bearer ${sim.platform.secretKey.test}`,
    'Content-Type': 'application/x-www-form-urlencoded',
  },
  body: 'email=jenny%40example.com&name=Jenny',
})
const customer = await res.json()
if (res.status !== 200) throw new Error(`customer create answered ${res.status}: ${JSON.stringify(customer)}`)
process.stdout.write(`${customer.id}\n`)
