// Where a cold start of service-sim goes: the same work as cold-start-service-sim.mjs, with the
// CPU time (all threads, ms) of node's own start, the import of the built package, createSimulator
// and the first customer create printed as one JSON line. Run by bench/cold-start.bench.ts.
const cpu = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}
const boot = cpu()
const { createSimulator } = await import('../../dist/index.js')
const imported = cpu()
const sim = createSimulator({ seed: 1 })
const created = cpu()
const res = await sim.fetch('https://api.example.test/v1/customers', {
  method: 'POST',
  headers: {
    Authorization: `Bearer ${sim.platform.secretKey.test}`,
    'Content-Type': 'application/x-www-form-urlencoded',
  },
  body: 'email=jenny%40example.com&name=Jenny',
})
await res.json()
const answered = cpu()
if (res.status !== 200) throw new Error(`customer create answered ${res.status}`)
const ms = (n) => Math.round(n * 10) / 10
process.stdout.write(
  `${JSON.stringify({ boot: ms(boot), import: ms(imported - boot), createSimulator: ms(created - imported), firstRequest: ms(answered - created) })}\n`,
)
