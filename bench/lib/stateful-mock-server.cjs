// Starts stripe-stateful-mock's express app on 127.0.0.1 only (its own CLI listens on every
// interface), prints the port, and stops on SIGTERM/SIGINT. Logging at 'warn' so neither server
// pays for a log line per request.
const log = require(require.resolve('loglevel', { paths: [require.resolve('stripe-stateful-mock')] }))
log.setLevel('warn')
const { createExpressApp } = require('stripe-stateful-mock')
const server = createExpressApp().listen(0, '127.0.0.1', () => {
  process.stdout.write(`stripe-stateful-mock listening on http://127.0.0.1:${server.address().port}\n`)
})
const stop = () => {
  server.close(() => process.exit(0))
  server.closeAllConnections?.()
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
