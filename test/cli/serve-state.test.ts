import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { startHttpServer } from '../../src/cli/http-server.js'
import { createSimulator } from '../../src/simulator/create-simulator.js'
import { run } from './in-process.js'
import { startServeCli } from './serve-cli.js'

const tmp = () => mkdtempSync(join(tmpdir(), 'service-sim-state-'))
const TOKEN = 'state-suite-token'
const admin = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' }

async function createCustomer(port: number, key: string, name: string): Promise<string> {
  const r = await fetch(`http://127.0.0.1:${port}/v1/customers`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ name }).toString(),
  })
  expect(r.status).toBe(200)
  return ((await r.json()) as { id: string }).id
}

async function customers(port: number, key: string): Promise<string[]> {
  const r = await fetch(`http://127.0.0.1:${port}/v1/customers`, { headers: { Authorization: `Bearer ${key}` } })
  return ((await r.json()) as { data: { name: string }[] }).data.map((c) => c.name)
}

describe('POST /__sim/snapshot (in process, over HTTP)', () => {
  it('answers the snapshot; with a state file it also writes it atomically; admin token and JSON required', async () => {
    const dir = tmp()
    const file = join(dir, 'state.json')
    for (const stateFile of [undefined, file]) {
      const sim = createSimulator({ seed: 3 })
      const server = await startHttpServer(sim, { port: 0, adminToken: TOKEN, ...(stateFile ? { stateFile } : {}) })
      try {
        const port = (server.address() as AddressInfo).port
        await createCustomer(port, sim.platform.secretKey.test, 'kept')
        const url = `http://127.0.0.1:${port}/__sim/snapshot`
        expect((await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' } })).status).toBe(401)
        expect((await fetch(url, { method: 'POST', headers: { Authorization: admin.Authorization } })).status).toBe(415)
        expect((await fetch(url, { headers: admin })).status).toBe(405)
        const r = await fetch(url, { method: 'POST', headers: admin, body: '{}' })
        expect(r.status).toBe(200)
        expect(r.headers.get('content-type')).toContain('application/json')
        const snapshot = await r.json()
        const loaded = createSimulator({ from: snapshot })
        expect(loaded.service.customers.list({ account: loaded.platform.id, mode: 'test' }).map((c) => c.name)).toEqual(['kept'])
        expect(loaded.trace.hash()).toBe(sim.trace.hash())
        if (stateFile === undefined) expect(existsSync(file)).toBe(false)
        else {
          expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(snapshot)
          expect(readdirSync(dir)).toEqual(['state.json']) // no temporary file left
        }
      } finally {
        await new Promise((done) => server.close(done))
      }
    }
  })
})

const startCli = (args: string[]) => startServeCli(['--admin-token', TOKEN, ...args])

describe('service-sim serve --state (the real bin)', () => {
  it('saves on POST /__sim/snapshot and on SIGINT, and the next start with the same file goes on from it', async () => {
    const dir = tmp()
    const file = join(dir, 'sim-state.json')
    const args = ['--clock', 'manual', '--seed', '8', '--state', file]
    const first = await startCli(args)
    let code: number | null
    try {
      expect(first.out()).not.toContain('state loaded')
      await createCustomer(first.port, first.key, 'ann')
      const r = await fetch(`http://127.0.0.1:${first.port}/__sim/snapshot`, { method: 'POST', headers: admin, body: '{}' })
      expect(r.status).toBe(200)
      expect(existsSync(file)).toBe(true)
      await createCustomer(first.port, first.key, 'bob') // after the snapshot: saved by SIGINT
    } finally {
      code = await first.stop()
    }
    expect(code).toBe(0)
    expect(first.out()).toContain(`state saved to ${file}`)
    // The save before the last is kept beside it; no temporary file is left.
    expect(readdirSync(dir).sort()).toEqual(['sim-state.json', 'sim-state.json.bak'])

    const second = await startCli(args)
    try {
      expect(second.out()).toContain(`state loaded from ${file}`)
      expect(second.key).toBe(first.key)
      expect(await customers(second.port, second.key)).toEqual(['bob', 'ann'])
      await createCustomer(second.port, second.key, 'cy')
    } finally {
      code = await second.stop('SIGTERM')
    }
    expect(code).toBe(0)
    const third = await startCli(args)
    try {
      expect(await customers(third.port, third.key)).toEqual(['cy', 'bob', 'ann'])
    } finally {
      await third.stop()
    }
  }, 60_000)

  it('refuses a state file that is not a snapshot (exit 2)', async () => {
    const file = join(tmp(), 'bad.json')
    writeFileSync(file, 'not json')
    const r = await run(['serve', '--port', '0', '--state', file])
    expect(r.code).toBe(2)
    writeFileSync(file, '{"nope":true}')
    expect((await run(['serve', '--port', '0', '--state', file])).code).toBe(2)
  })
})
