// The ceiling of the HTTP bench: node's own HTTP server, in its own process on 127.0.0.1, that
// reads each request's body and answers a canned customer (the size of service-sim's) with the
// headers service-sim sends, in one write. No routing, no state, no validation: what any node
// server on this machine costs per request under the same autocannon load.
const { createServer } = require('node:http')

const body = JSON.stringify({
  address: null,
  balance: 0,
  created: 1767225600,
  currency: null,
  default_source: null,
  delinquent: false,
  description: null,
  discount: null,
  email: 'jenny@example.com',
  id: 'cus_DKJYZOSFdmRano',
  invoice_prefix: 'DKJYZOSF',
  invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
  livemode: false,
  metadata: {},
  name: 'Jenny',
  next_invoice_sequence: 1,
  object: 'customer',
  phone: null,
  preferred_locales: [],
  shipping: null,
  tax_exempt: 'none',
  test_clock: null,
})
const length = String(Buffer.byteLength(body))
const server = createServer((req, res) => {
  req.on('data', () => {})
  req.on('end', () => {
    res.writeHead(200, [
      'Request-Id',
      'req_GLX2OQVd43uqXl',
      'Service-Version',
      '2026-10-28.endive',
      'Content-Type',
      'application/json',
      'Content-Length',
      length,
    ])
    res.end(body)
  })
})
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`bare node:http listening on http://127.0.0.1:${server.address().port}\n`)
})
const stop = () => {
  server.close(() => process.exit(0))
  server.closeAllConnections?.()
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
