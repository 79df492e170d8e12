import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { run } from './in-process.js'
import { BIN, cli, ROOT } from './run-cli.js'

const tmp = () => mkdtempSync(join(tmpdir(), 'service-sim-'))

describe('service-sim serve', () => {
  it('serves sim.fetch and the admin API on loopback and stops cleanly on SIGINT', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--seed', '42', '--clock', 'manual'], { cwd: ROOT })
    let out = ''
    const port = await new Promise<number>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString()
        const m = /127\.0\.0\.1:(\d+)/.exec(out)
        if (m) resolve(Number(m[1]))
      })
      child.on('exit', () => reject(new Error(out)))
    })
    const key = /secret key (\S+)/.exec(out)?.[1]
    const admin = { Authorization: `Bearer ${/admin token (\S+)/.exec(out)?.[1]}`, 'Content-Type': 'application/json' }
    const account = await fetch(`http://127.0.0.1:${port}/v1/account`, { headers: { Authorization: `Bearer ${key}` } })
    expect(account.status).toBe(200)
    const state = (await (await fetch(`http://127.0.0.1:${port}/__sim/state`, { headers: admin })).json()) as { now: string }
    const moved = await fetch(`http://127.0.0.1:${port}/__sim/clock/advance`, {
      method: 'POST',
      body: '{"duration":"15m"}',
      headers: admin,
    })
    expect(((await moved.json()) as { now: string }).now).toBe(new Date(Date.parse(state.now) + 900_000).toISOString())
    expect(
      (
        await fetch(`http://127.0.0.1:${port}/__sim/clock/advance`, {
          method: 'POST',
          body: '{"duration":"soon"}',
          headers: admin,
        })
      ).status,
    ).toBe(400)
    const code = await new Promise<number | null>((resolve) => {
      child.on('exit', (c) => resolve(c))
      child.kill('SIGINT')
    })
    expect(code).toBe(0)
    expect(out).toContain('service-sim stopped')
  })

  it('exits 2 for a bad port', async () => {
    expect((await run(['serve', '--port', 'eighty'])).code).toBe(2)
  })
})

describe('service-sim fuzz and merge', () => {
  it('runs shards on a worker pool and merges their reports (the real bin for one shard and the merge)', async () => {
    const dir = tmp()
    const args = ['fuzz', '--scenario', 'scenarios/default.yaml', '--runs', '4', '--report', dir, '--failures', join(dir, 'f')]
    const a = cli([...args, '--shard', '1/2', '--workers', '2'])
    expect(a.code).toBe(0)
    expect(a.stdout).toContain('2 runs, 0 failing')
    expect((await run([...args, '--shard', '2/2'])).code).toBe(0)
    const shards = ['shard-1-of-2.json', 'shard-2-of-2.json'].map((f) => join(dir, 'fuzz', 'default', f))
    const out = join(dir, 'merged.json')
    expect(cli(['merge', ...shards, '--out', out]).code).toBe(0)
    const merged = JSON.parse(readFileSync(out, 'utf8'))
    expect(merged).toMatchObject({ kind: 'fuzz', runs: 4, shards: ['1/2', '2/2'], failures: [] })
    expect((await run(['merge', join(dir, 'nope.json')])).code).toBe(2)
    expect((await run(['fuzz', '--runs', '0'])).code).toBe(2)
    expect((await run(['fuzz', '--shard', '3/2'])).code).toBe(2)
  })

  it('saves a failing seed as a replayable scenario and re-runs it first next time', async () => {
    const dir = tmp()
    const file = join(dir, 'flaky.yaml')
    // Fails whenever the seeded policy expires the session before the second stream request.
    writeFileSync(
      file,
      [
        'name: flaky',
        'workload:',
        '  - request: { method: POST, path: /v2/billing/meter_event_session, save: s }',
        '  - request: { method: POST, path: /v2/billing/meter_event_stream, token: "{{s.authentication_token}}", body: { events: [] } }',
        '    expect: { status: [200, 202, 400] }',
        '  - request: { method: POST, path: /v2/billing/meter_event_stream, token: "{{s.authentication_token}}", body: { events: [] } }',
        '    expect: { status: [200, 202, 400] }',
        'faults:',
        '  policy: { rates: { session_expiry: 0.5 } }',
        '',
      ].join('\n'),
    )
    const failures = join(dir, 'failures')
    const r = await run(['fuzz', '--scenario', file, '--runs', '6', '--workers', '1', '--report', dir, '--failures', failures])
    expect(r.code).toBe(1)
    const saved = readdirSync(failures)
    expect(saved.length).toBeGreaterThan(0)
    const replay = await run(['replay', join(failures, saved[0] as string), '--no-report'])
    expect(replay.code).toBe(1)
    expect(replay.stdout).toContain('fault session_expiry (schedule)')
    const again = await run([
      'fuzz',
      '--scenario',
      file,
      '--runs',
      '1',
      '--seed',
      '100',
      '--workers',
      '1',
      '--report',
      dir,
      '--failures',
      failures,
    ])
    expect(again.stdout).toMatch(new RegExp(`seed ${/seed-(\d+)/.exec(saved[0] as string)?.[1]}`))
    expect(existsSync(failures)).toBe(true)
  })
})
