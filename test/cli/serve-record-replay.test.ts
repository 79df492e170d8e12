import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from './run-cli.js'
import { startServeCli } from './serve-cli.js'

const TOKEN = 'record-suite-token'

const startCli = (args: string[]) => startServeCli(['--admin-token', TOKEN, ...args])

/** A webhook receiver on loopback: answers 500 to the first delivery, 200 to the others. */
async function receiver(): Promise<{ server: Server; url: string; got: () => number }> {
  let got = 0
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      got++
      res.writeHead(got === 1 ? 500 : 200, { 'Content-Type': 'text/plain' }).end(got === 1 ? 'busy' : 'ok')
    })
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got: () => got }
}

async function until(ms: number, check: () => boolean): Promise<boolean> {
  const end = Date.now() + ms
  while (Date.now() < end && !check()) await new Promise((r) => setTimeout(r, 20))
  return check()
}

describe('serve --record and replay --served (the real bin)', () => {
  it('replays a served session with webhooks and passing time to the same answers and trace hash, and names a divergence', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'service-sim-record-'))
    const file = join(dir, 'session.jsonl')
    const hook = await receiver()
    const served = await startCli(['--seed', '7', '--speed', '60', '--record', file, '--forward-to', hook.url])
    try {
      const base = `http://127.0.0.1:${served.port}`
      const form = { Authorization: `Bearer ${served.key}`, 'Content-Type': 'application/x-www-form-urlencoded' }
      const json = { Authorization: `Bearer ${served.key}`, 'Content-Type': 'application/json' }
      const created = await fetch(`${base}/v1/customers`, { method: 'POST', headers: form, body: 'email=a%40example.com' })
      expect(created.status).toBe(200)
      const id = ((await created.json()) as { id: string }).id
      // The first delivery is refused (500): its retry falls due an hour of virtual time later.
      expect(await until(20_000, () => hook.got() >= 1)).toBe(true)
      expect((await fetch(`${base}/v1/customers`, { method: 'POST', headers: form, body: 'email=nope' })).status).toBe(400)
      const keyed = { ...form, 'Idempotency-Key': 'k1' }
      const once = await fetch(`${base}/v1/customers`, { method: 'POST', headers: keyed, body: 'name=Bo' })
      const twice = await fetch(`${base}/v1/customers`, { method: 'POST', headers: keyed, body: 'name=Bo' })
      expect(await twice.text()).toBe(await once.text())
      const session = await fetch(`${base}/v2/billing/meter_event_session`, { method: 'POST', headers: json, body: '{}' })
      expect(session.status).toBe(200)
      // Real time passes (x60 virtual), then a jump: the retry is delivered and accepted.
      await new Promise((r) => setTimeout(r, 300))
      const advanced = await fetch(`${base}/__sim/clock/advance`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ duration: '2h' }),
      })
      expect(advanced.status).toBe(200)
      expect(await until(20_000, () => hook.got() >= 2)).toBe(true)
      expect((await fetch(`${base}/v1/customers/${id}`, { headers: form })).status).toBe(200)
      expect((await fetch(`${base}/v1/customers?limit=2`, { headers: form })).status).toBe(200)
    } finally {
      expect(await served.stop()).toBe(0)
      hook.server.close()
    }
    expect(served.out()).toContain(`session recorded in ${file}`)
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { kind: string })
    expect(lines[0]).toMatchObject({ kind: 'session', version: 2, seed: '7', clock: { mode: 'wall', speed: 60 } })
    expect(lines.filter((l) => l.kind === 'request')).toHaveLength(8)
    expect(lines.filter((l) => l.kind === 'receiver').length).toBeGreaterThanOrEqual(2)
    expect(lines.at(-1)).toMatchObject({ kind: 'end' })

    const replay = cli(['replay', '--served', file])
    expect(replay.stderr).toBe('')
    expect(replay.stdout).toContain('8/8 answers as recorded')
    expect(replay.stdout).toContain('as recorded')
    expect(replay.code).toBe(0)

    // A record whose answer differs (here: edited) is a divergence, named by request.
    const edited = join(dir, 'edited.jsonl')
    writeFileSync(edited, readFileSync(file, 'utf8').replace('"status":400', '"status":402'))
    const diverged = cli(['replay', '--served', edited])
    expect(diverged.code).toBe(1)
    expect(diverged.stdout).toMatch(/first divergence: #\d+ POST \/v1\/customers \(status\)/)
  }, 90_000)

  it('replays a session whose receiver answers after the wall clock moved past the virtual time-out, also while a trigger waits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'service-sim-record-'))
    const file = join(dir, 'slow.jsonl')
    // 400 ms of real time is 24 s of virtual time at x60: well past the 10 s an attempt has on the
    // virtual clock, but within the 10 s serve gives a receiver on the wall clock.
    let got = 0
    const slow = createServer((req, res) => {
      req.resume()
      req.on('end', () => {
        got++
        setTimeout(() => res.writeHead(500, { 'Content-Type': 'text/plain' }).end('slow'), 400)
      })
    })
    await new Promise<void>((done) => slow.listen(0, '127.0.0.1', done))
    const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/hook`
    const served = await startCli(['--seed', '9', '--speed', '60', '--record', file, '--forward-to', url])
    try {
      const base = `http://127.0.0.1:${served.port}`
      const form = { Authorization: `Bearer ${served.key}`, 'Content-Type': 'application/x-www-form-urlencoded' }
      expect((await fetch(`${base}/v1/customers`, { method: 'POST', headers: form, body: 'name=Slow' })).status).toBe(200)
      expect(await until(20_000, () => got >= 1)).toBe(true)
      // Served while the receiver is still answering.
      expect((await fetch(`${base}/v1/balance`, { headers: form })).status).toBe(200)
      await new Promise((r) => setTimeout(r, 600))
      // A trigger waits for its event's delivery while the wall clock moves on.
      const trigger = await fetch(`${base}/__sim/events/trigger`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ type: 'customer.created' }),
      })
      expect(trigger.status).toBe(200)
      expect((await fetch(`${base}/v1/customers?limit=1`, { headers: form })).status).toBe(200)
    } finally {
      expect(await served.stop()).toBe(0)
      slow.close()
    }
    const answers = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { kind: string; sent?: number; answered?: number })
      .filter((l) => l.kind === 'receiver')
    expect(answers.length).toBeGreaterThanOrEqual(2)
    // Answers came in after the clock had moved past an attempt's 10 s of virtual time.
    expect(answers.some((a) => (a.answered ?? 0) - (a.sent ?? 0) > 10_000)).toBe(true)
    const replay = cli(['replay', '--served', file])
    expect(replay.stdout).toContain('4/4 answers as recorded; trace hash')
    expect(replay.code).toBe(0)
  }, 90_000)

  it('refuses --record with --state, a file that is not a record, and a record of the older digest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'service-sim-record-'))
    expect(cli(['serve', '--record', join(dir, 'r.jsonl'), '--state', join(dir, 's.json')]).code).toBe(2)
    const bad = join(dir, 'bad.jsonl')
    writeFileSync(bad, '{"kind":"request"}\n')
    const r = cli(['replay', '--served', bad])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('not a session record')
    const old = join(dir, 'old.jsonl')
    writeFileSync(old, '{"kind":"session","version":1}\n')
    const v1 = cli(['replay', '--served', old])
    expect(v1.code).toBe(2)
    expect(v1.stderr).toContain('version 1 session record ends with the older trace digest')
  }, 90_000)
})
