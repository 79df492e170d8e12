import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { run } from './in-process.js'
import { cli } from './run-cli.js'

const tmp = () => mkdtempSync(join(tmpdir(), 'service-sim-'))

describe('service-sim replay (the real bin, in child processes)', () => {
  it('replays the default scenario with no arguments, prints a virtual-time timeline and exits 0', () => {
    const dir = tmp()
    const r = cli(['replay', '--report', dir])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/\+15m\s+#6\s+the token expired -> 401 billing_meter_event_session_expired/)
    expect(r.stdout).toMatch(/default seed 42 \(trace [0-9a-f]{16}\): all/)
    expect(readFileSync(join(dir, 'default', '42', 'report.md'), 'utf8')).toContain('all expectations hold')
  })

  it('writes byte-identical report.json for the same scenario and seed in two processes', () => {
    const a = tmp()
    const b = tmp()
    expect(cli(['replay', 'scenarios/default.yaml', '--seed', '5', '--quiet', '--report', a]).code).toBe(0)
    expect(cli(['replay', 'scenarios/default.yaml', '--seed', '5', '--quiet', '--report', b]).code).toBe(0)
    const ja = readFileSync(join(a, 'default', '5', 'report.json'))
    expect(ja.equals(readFileSync(join(b, 'default', '5', 'report.json')))).toBe(true)
    expect(JSON.parse(ja.toString()).seed).toBe('5')
  })
})

describe('service-sim replay', () => {
  it('exits 1 and names the violated expectation', async () => {
    const dir = tmp()
    const file = join(dir, 'wrong.yaml')
    writeFileSync(file, 'name: wrong\nworkload:\n  - request: { path: /v1/account }\n    expect: { status: 404 }\n')
    const r = await run(['replay', file, '--no-report'])
    expect(r.code).toBe(1)
    expect(r.stdout).toContain('1 violated: step 1 (GET /v1/account)')
    expect(r.stdout).toContain('expected status 404, got 200')
  })

  it('exits 2 naming the file, the path inside it and what was expected, without a stack trace', async () => {
    const dir = tmp()
    const file = join(dir, 'bad.yaml')
    writeFileSync(file, 'name: bad\nworkload:\n  - advance: soon\n  - request: { method: PUT, path: /v1/account }\n')
    const r = await run(['replay', file])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`${file}:3: workload[0].advance: expected a duration`)
    expect(r.stderr).toMatch(/bad\.yaml:4: workload\[1\]\.request\.method: expected one of "GET", "POST", "DELETE", got "PUT"/)
    expect(r.stderr).not.toMatch(/\bat .+:\d+:\d+\)/)
  })

  it('exits 2 for an unknown checker, naming the file, the path and the known checkers', async () => {
    const dir = tmp()
    const file = join(dir, 'checkers.yaml')
    writeFileSync(file, 'name: c\nworkload: []\nexpectations:\n  checkers: [deterministic, no-such-checker]\n')
    const r = await run(['replay', file, '--no-report'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(
      `${file}:4: expectations.checkers[1]: unknown checker 'no-such-checker'; known: billing, clients, deliveries, deliveries-acknowledged, deterministic, dunning, fulfilment, no-duplicate-deliveries, no-server-errors, receivers, signatures-valid, subscription-mirror, usage`,
    )
    expect(r.stdout).toBe('')
  })

  it('exits 2 for a missing file, broken YAML, an unknown option and a bad seed', async () => {
    const dir = tmp()
    expect((await run(['replay', join(dir, 'nope.yaml')])).stderr).toContain('nope.yaml: no such file')
    const broken = join(dir, 'broken.json')
    writeFileSync(broken, '{"name": "x", "workload": [')
    const r = await run(['replay', broken])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/broken\.json(:\d+)?: not valid JSON/)
    expect((await run(['replay', '--frobnicate'])).code).toBe(2)
    expect((await run(['replay', '--seed', '1 2'])).code).toBe(2)
    expect((await run(['replay', 'a.yaml', 'b.yaml'])).stderr).toContain('expected one scenario file')
  })

  it('names the line of a YAML or JSON syntax error, in JSON wording for a .json file', async () => {
    const dir = tmp()
    const yaml = join(dir, 'broken.yaml')
    writeFileSync(yaml, 'name: x\nworkload:\n  - advance: 1s\n   bad: [\n')
    const y = await run(['replay', yaml])
    expect(y.code).toBe(2)
    expect(y.stderr).toMatch(new RegExp(`${yaml.replace(/[.]/g, '\\.')}:\\d+: not valid YAML`))
    const json = join(dir, 'broken.json')
    writeFileSync(json, '{"name": "x",\n "workload": [1,]\n}')
    const j = await run(['replay', json])
    expect(j.code).toBe(2)
    expect(j.stderr).toContain(`${json}:2: not valid JSON (column 17): Unexpected token ']'`)
    writeFileSync(json, '{"name": "x",\n "workload": [],\n "seed": 1 "x": 2}')
    expect((await run(['replay', json])).stderr).toContain(`${json}:3: not valid JSON (column 12): Expected ',' or '}'`)
  })

  it('loads a TypeScript --client module from a directory without a package.json', async () => {
    const dir = tmp()
    writeFileSync(
      join(dir, 'client.ts'),
      "import type { Stats } from 'node:fs'\nexport const actions = { async hello(ctx: any): Promise<number> { const s: Stats | undefined = undefined; void s; const r = await ctx.request({ path: '/v1/account' }); return r.status as number } }\n",
    )
    writeFileSync(join(dir, 's.yaml'), 'name: c\nworkload:\n  - client: { action: hello }\n    expect: { status: 200 }\n')
    const r = await run(['replay', join(dir, 's.yaml'), '--client', join(dir, 'client.ts'), '--no-report'])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('client hello -> 200')
    expect((await run(['replay', join(dir, 's.yaml'), '--client', join(dir, 'missing.ts')])).code).toBe(2)
  })

  it('prints help with examples for every command and exits 0', async () => {
    for (const c of ['replay', 'fuzz', 'serve', 'merge']) {
      const r = await run([c, '--help'])
      expect(r.code).toBe(0)
      expect(r.stdout).toContain(`Usage: service-sim ${c}`)
      expect(r.stdout).toMatch(/Examples?:/)
    }
    expect((await run(['--help'])).code).toBe(0)
    expect((await run([])).code).toBe(2)
    expect((await run(['launch'])).code).toBe(2)
  })
})
