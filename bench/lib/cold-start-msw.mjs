// The same cold start as cold-start-service-sim.mjs with a static msw handler instead: import msw,
// answer POST /v1/customers with a fixed customer JSON, create a customer through global fetch.
import { HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'

const customer = { id: 'cus_static', object: 'customer', email: 'jenny@example.com', name: 'Jenny', metadata: {} }
const server = setupServer(http.post('https://api.example.test/v1/customers', () => HttpResponse.json(customer)))
server.listen({ onUnhandledRequest: 'error' })
const res = await fetch('https://api.example.test/v1/customers', {
  method: 'POST',
  headers: { Authorization: 'Bearer sk_test_static', 'Content-Type': 'application/x-www-form-urlencoded' },
  body: 'email=jenny%40example.com&name=Jenny',
})
const body = await res.json()
server.close()
if (res.status !== 200) throw new Error(`customer create answered ${res.status}`)
process.stdout.write(`${body.id}\n`)
