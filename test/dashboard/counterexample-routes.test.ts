import { copyFileSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CounterexampleSource } from '../../src/cli/counterexample/counterexample-source.js'
import { startOpenServer } from '../../src/cli/counterexample/open-server.js'
import type { Moment, Walkthrough } from '../../src/cli/counterexample/walkthrough.js'
import { startHttpServer } from '../../src/cli/http-server.js'
import { buggyWebhookReceivers, checkWebhookHandler } from '../../src/harness/index.js'
import { createSimulator } from '../../src/simulator/create-simulator.js'
import { run } from '../cli/in-process.js'
import { type Answer, call } from '../cli/node-request.js'

const TOKEN = 'counterexample-suite-token'
const auth = { Authorization: `Bearer ${TOKEN}` }
const code = (answer: Answer) => (JSON.parse(answer.body) as { error?: { code?: string } }).error?.code
const noDedup = buggyWebhookReceivers.find((v) => v.name === 'no-dedup')?.factory

const close = (server: Server) =>
  new Promise<void>((done) => {
    server.closeAllConnections()
    server.close(() => done())
  })

describe("the dashboard's step-through of a counterexample", () => {
  const dir = mkdtempSync(join(tmpdir(), 'service-sim-cx-'))
  let found: Awaited<ReturnType<typeof checkWebhookHandler>>
  let name = ''
  let server: Server
  let port = 0

  beforeAll(async () => {
    // An app that does not deduplicate deliveries fails the property; its counterexample is saved.
    found = await checkWebhookHandler(noDedup as NonNullable<typeof noDedup>, {
      numRuns: 40,
      name: 'no-dedup',
      scenarioDir: dir,
      workload: { lateRedelivery: false },
    })
    name = basename(found.scenarioFile as string)
    // An older counterexample beside it: the list shows the newest first.
    copyFileSync(join(dir, name), join(dir, 'older.json'))
    utimesSync(join(dir, 'older.json'), new Date('2020-01-01T00:00:00Z'), new Date('2020-01-01T00:00:00Z'))
    server = await startOpenServer(new CounterexampleSource(dir), { token: TOKEN })
    port = (server.address() as AddressInfo).port
  }, 60_000)
  afterAll(() => close(server))

  it('lists the counterexamples of a directory, newest first', async () => {
    const answer = await call(port, '/__dashboard/counterexamples', { headers: auth })
    expect(answer.status).toBe(200)
    const list = JSON.parse(answer.body) as { path: string; files: { name: string }[] }
    expect(list.path).toBe(dir)
    expect(list.files.map((f) => f.name)).toEqual([name, 'older.json'])
  })

  it("replays one to the failing run's trace, the violation's witnesses marked in the step that holds the last", async () => {
    const answer = await call(port, `/__dashboard/counterexamples/${encodeURIComponent(name)}`, { headers: auth })
    expect(answer.status, answer.body).toBe(200)
    const walk = JSON.parse(answer.body) as Walkthrough
    expect(walk.traceHash).toBe(found.traceHash)
    expect(walk.verdicts.find((v) => v.name === 'reproduces the recorded trace hash')?.ok).toBe(true)
    const violated = walk.verdicts.find((v) => !v.ok)
    expect(violated?.name).toBe(`checker ${found.violations?.[0]?.checker}`)
    expect(walk.violationStep).toBeGreaterThan(0)
    const moments: Moment[] = walk.steps.flatMap((s) => s.moments)
    const witnesses = moments.filter((m) => m.witness?.includes(violated?.name ?? ''))
    expect(witnesses.map((m) => m.seq)).toEqual(violated?.witness)
    expect(walk.steps[walk.violationStep]?.moments.some((m) => m.seq === violated?.witness.at(-1))).toBe(true)
    // The deliveries carry what the app answered, and the first step starts after the setup.
    const deliveries = moments.filter((m) => m.kind === 'delivery')
    expect(deliveries.length).toBeGreaterThan(1)
    expect(deliveries.every((d) => d.kind === 'delivery' && typeof d.answer === 'string')).toBe(true)
    expect(walk.steps[0]?.moments.some((m) => m.kind === 'request')).toBe(true)
    expect(walk.steps[1]?.moments.some((m) => m.kind === 'request')).toBe(false)
  })

  it('answers 404 for a name that is not one of its files, a path outside included', async () => {
    for (const path of ['missing.json', '..%2Fetc%2Fpasswd', '%2Fetc%2Fpasswd']) {
      const answer = await call(port, `/__dashboard/counterexamples/${path}`, { headers: auth })
      expect(answer.status, path).toBe(404)
      expect(code(answer)).toBe('resource_missing')
    }
  })

  it('refuses the page, the list and a counterexample without the token with 401', async () => {
    for (const path of [
      '/__dashboard',
      '/__dashboard/app.js',
      '/__dashboard/counterexamples',
      `/__dashboard/counterexamples/${name}`,
    ]) {
      const answer = await call(port, path)
      expect(answer.status, path).toBe(401)
      expect(code(answer)).toBe('admin_token_missing')
    }
  })

  it('refuses a foreign Origin and a rebinding Host with 403, and any write with 405', async () => {
    const origin = await call(port, '/__dashboard/counterexamples', { headers: { ...auth, Origin: 'https://evil.example' } })
    expect(origin.status).toBe(403)
    const host = await call(port, '/__dashboard/counterexamples', { headers: { ...auth, Host: `evil.example:${port}` } })
    expect(host.status).toBe(403)
    const write = await call(port, '/__dashboard/counterexamples', { method: 'POST', headers: auth, body: '{}' })
    expect(write.status).toBe(405)
  })

  it('serves the page as the counterexample dashboard, the token link moving into a cookie', async () => {
    const link = await call(port, `/__dashboard?token=${TOKEN}`)
    expect(link.status).toBe(303)
    expect(String(link.headers['set-cookie'])).toContain('HttpOnly; SameSite=Strict')
    const page = await call(port, '/__dashboard', { headers: auth })
    expect(page.body).toContain('<body data-mode="counterexample">')
  })

  it("steps through serve's --counterexamples directory in serve's own dashboard, and says when it has none", async () => {
    const served = await startHttpServer(createSimulator({ seed: 1 }), {
      adminToken: TOKEN,
      counterexamples: new CounterexampleSource(dir),
    })
    const bare = await startHttpServer(createSimulator({ seed: 1 }), { adminToken: TOKEN })
    try {
      const list = await call((served.address() as AddressInfo).port, '/__dashboard/counterexamples', { headers: auth })
      expect(JSON.parse(list.body).files[0].name).toBe(name)
      const none = await call((bare.address() as AddressInfo).port, '/__dashboard/counterexamples', { headers: auth })
      expect(JSON.parse(none.body)).toEqual({ path: null, files: [] })
    } finally {
      await Promise.all([close(served), close(bare)])
    }
  })

  it("follows a scenario that is not a property's step by step, to the trace replay reaches", async () => {
    const source = new CounterexampleSource(join(import.meta.dirname, '..', '..', 'scenarios', 'default.yaml'))
    const walk = (await source.walk('default.yaml')) as Walkthrough
    expect(walk.traceHash.slice(0, 16)).toBe('938c7a53886ebc1c')
    // Its first steps share a virtual instant, and each still shows its own request.
    const first = walk.steps.slice(1, 5)
    expect(new Set(first.map((s) => s.at)).size).toBe(1)
    expect(first.every((s) => s.moments.filter((m) => m.kind === 'request').length === 1)).toBe(true)
  })

  it('refuses service-sim open without a file, or with one that is not there, and serve --counterexamples a missing directory, with exit code 2', async () => {
    const none = await run(['open'])
    expect(none.code).toBe(2)
    expect(none.stderr).toContain('expected one counterexample file or directory')
    const missing = await run(['open', join(dir, 'nope.json')])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('no such file or directory')
    // A counterexample whose subject module is gone is refused before anything is served.
    const lost = join(mkdtempSync(join(tmpdir(), 'service-sim-cx-')), 'lost.json')
    const scenario = JSON.parse(readFileSync(join(dir, name), 'utf8'))
    writeFileSync(lost, JSON.stringify({ ...scenario, harness: { webhook: './gone.mjs' } }))
    const unloadable = await run(['open', lost])
    expect(unloadable.code).toBe(2)
    expect(unloadable.stderr).toContain("names subject module './gone.mjs', which cannot be loaded")
    const serve = await run(['serve', '--port', '0', '--counterexamples', join(dir, 'nowhere')])
    expect(serve.code).toBe(2)
    expect(serve.stderr).toContain('--counterexamples: ')
  })
})
