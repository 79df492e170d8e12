import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { run } from './in-process.js'
import { ROOT } from './run-cli.js'

const tmp = () => mkdtempSync(join(tmpdir(), 'service-sim-fuzz-'))

describe('service-sim fuzz campaigns', () => {
  it('runs a --time campaign until its budget ends instead of expanding endless seeds', async () => {
    const dir = tmp()
    const r = await run([
      'fuzz',
      '--scenario',
      join(ROOT, 'scenarios', 'default.yaml'),
      '--time',
      '1s',
      '--report',
      dir,
      '--failures',
      join(dir, 'f'),
    ])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const report = JSON.parse(readFileSync(join(dir, 'fuzz', 'default', 'shard-1-of-1.json'), 'utf8'))
    expect(report.runs).toBeGreaterThan(0)
    expect(report.seeds).toEqual([{ first: 1, last: report.runs }])
  })

  it('prints and saves a replay command that names the --client the seed failed against', async () => {
    const dir = tmp()
    const client = join(dir, 'nodedup.ts')
    // Processes every copy: the duplicates of the scenario count as extra side effects.
    writeFileSync(
      client,
      'export function receiver(ctx: any) { return async (req: Request) => { const b = JSON.parse(await req.text()); ctx.processed(b.id); return new Response("ok") } }\n',
    )
    const failures = join(dir, 'f')
    const r = await run([
      'fuzz',
      '--scenario',
      join(ROOT, 'scenarios', 'duplicates-and-reordering.yaml'),
      '--runs',
      '1',
      '--client',
      client,
      '--report',
      dir,
      '--failures',
      failures,
    ])
    expect(r.code).toBe(1)
    const saved = join(failures, readdirSync(failures)[0] as string)
    expect(r.stdout).toContain(`replay: service-sim replay ${saved} --client ${client}`)
    expect(readFileSync(saved, 'utf8').split('\n')[0]).toContain(`--client ${client}`)
    // The printed command reproduces the failure; without the client it would pass.
    const args = /replay: service-sim (replay .*)$/m.exec(r.stdout)?.[1]?.split(' ') as string[]
    expect((await run([...args, '--no-report', '--quiet'])).code).toBe(1)
    expect((await run(['replay', saved, '--no-report', '--quiet'])).code).toBe(0)
  })

  it('refuses a seed that is not a safe integer instead of rounding it', async () => {
    expect((await run(['fuzz', '--seed', '9007199254740993', '--runs', '1'])).code).toBe(2)
    const r = await run(['replay', '--seed', '9007199254740993', '--no-report'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--seed')
  })
})

describe('service-sim fuzz workers and merge', () => {
  it('caps --workers at the number of runs with a note, and merge refuses the same shard twice', async () => {
    const dir = tmp()
    const r = await run([
      'fuzz',
      '--scenario',
      join(ROOT, 'scenarios', 'default.yaml'),
      '--runs',
      '1',
      '--workers',
      '64',
      '--report',
      dir,
      '--failures',
      join(dir, 'f'),
    ])
    expect(r.code).toBe(0)
    expect(r.stderr).toMatch(/--workers 64 capped at 1 /)
    const shard = join(dir, 'fuzz', 'default', 'shard-1-of-1.json')
    const twice = await run(['merge', shard, shard])
    expect(twice.code).toBe(2)
    expect(twice.stderr).toContain('shard 1/1')
  })
})
