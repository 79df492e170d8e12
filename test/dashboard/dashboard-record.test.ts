import { mkdtempSync, readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from '../cli/run-cli.js'
import { startServeCli } from '../cli/serve-cli.js'

const TOKEN = 'dashboard-record-suite'

describe("a recorded serve session with the dashboard's reads and a resend from it (the real bin)", () => {
  it('records the resend as an admin action and none of the reads, and replays to the same answers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'service-sim-dashboard-record-'))
    const file = join(dir, 'session.jsonl')
    let got = 0
    const hook = createServer((req, res) => {
      req.resume()
      req.on('end', () => {
        got++
        res.writeHead(got === 1 ? 500 : 200, { 'Content-Type': 'text/plain' }).end(got === 1 ? 'busy' : 'ok')
      })
    })
    await new Promise<void>((done) => hook.listen(0, '127.0.0.1', done))
    const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`
    const served = await startServeCli(['--admin-token', TOKEN, '--clock', 'manual', '--record', file, '--forward-to', url])
    try {
      const base = `http://127.0.0.1:${served.port}`
      const admin = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' }
      const form = { Authorization: `Bearer ${served.key}`, 'Content-Type': 'application/x-www-form-urlencoded' }
      expect((await fetch(`${base}/v1/customers`, { method: 'POST', headers: form, body: 'email=a%40example.com' })).status).toBe(
        200,
      )
      expect((await fetch(`${base}/__sim/settle`, { method: 'POST', headers: admin })).status).toBe(200)
      const read = await fetch(`${base}/__dashboard/api/deliveries`, { headers: admin })
      const [delivery] = (
        (await read.json()) as { data: { event: string; destination: string; attempts: { answer?: string }[] }[] }
      ).data
      expect(delivery?.attempts.map((a) => a.answer)).toEqual(['busy'])
      const resent = await fetch(`${base}/__dashboard/api/deliveries/resend`, {
        method: 'POST',
        headers: admin,
        body: JSON.stringify({ event: delivery?.event, destination: delivery?.destination }),
      })
      expect(((await resent.json()) as { status: number; answer: string }).answer).toBe('ok')
    } finally {
      expect(await served.stop()).toBe(0)
      hook.close()
    }
    const requests = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { kind: string; path?: string })
      .filter((l) => l.kind === 'request')
    expect(requests.map((r) => r.path)).toEqual(['/v1/customers', '/__sim/settle', '/__sim/deliveries/resend'])
    const replay = cli(['replay', '--served', file])
    expect(replay.stderr).toBe('')
    expect(replay.stdout).toContain('3/3 answers as recorded')
    expect(replay.code).toBe(0)
  }, 60_000)
})
