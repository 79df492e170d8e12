import type { AddressInfo } from 'node:net'
import { describe, expect, it, vi } from 'vitest'
import { startHttpServer } from '../../src/cli/http-server.js'
import { createSimulator } from '../../src/simulator/create-simulator.js'

// The simulator's exchange fails on one path, as a bug in it would: the server must answer 500 in
// the envelope and go on serving.
vi.mock('../../src/simulator/create-simulator.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/simulator/create-simulator.js')>()
  return {
    ...real,
    incomingExchangeOf: (sim: Parameters<typeof real.incomingExchangeOf>[0]) => {
      const exchange = real.incomingExchangeOf(sim)
      return (incoming: Parameters<typeof exchange>[0]) =>
        incoming.url.pathname === '/v1/boom' ? Promise.reject(new Error('boom')) : exchange(incoming)
    },
  }
})

describe('serve and an unexpected error', () => {
  it('answers 500 server_error in the envelope, logs it, and keeps serving', async () => {
    const sim = createSimulator({ seed: 5, limits: false })
    const server = await startHttpServer(sim, { port: 0, adminToken: null })
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const logged = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    try {
      const auth = { Authorization: `Bearer ${sim.platform.secretKey.test}` }
      const boom = await fetch(`${base}/v1/boom`, { headers: auth })
      expect(boom.status).toBe(500)
      expect(await boom.json()).toMatchObject({ error: { type: 'api_error', code: 'server_error' } })
      expect(String(logged.mock.calls[0]?.[0])).toContain('unexpected error answering GET "/v1/boom"')
      expect((await fetch(`${base}/v1/balance`, { headers: auth })).status).toBe(200)
    } finally {
      logged.mockRestore()
      server.closeAllConnections()
      await new Promise<void>((done) => server.close(() => done()))
    }
  })
})
