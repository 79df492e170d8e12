import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { run } from './in-process.js'
import { cli } from './run-cli.js'

const bundled = readdirSync(join(import.meta.dirname, '..', '..', 'scenarios'))
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => f.slice(0, -'.yaml'.length))

describe('bundled scenarios in a project of their own (no local scenarios/ folder)', () => {
  let app: string
  let home: string
  beforeEach(() => {
    home = process.cwd()
    app = mkdtempSync(join(tmpdir(), 'service-sim-app-'))
    process.chdir(app)
  })
  afterEach(() => {
    process.chdir(home)
    rmSync(app, { recursive: true, force: true })
  })

  it('lists every bundled scenario by name with its summary', async () => {
    const r = await run(['scenarios'])
    expect(r.code).toBe(0)
    for (const name of bundled) expect(r.stdout).toMatch(new RegExp(`^${name} +\\S`, 'm'))
    expect(r.stdout).toMatch(/^usage-to-invoice +A month of usage billed end to end\.$/m)
  })

  it('replays a bundled scenario by its bare name and reports under .service-sim/reports, not reports/', async () => {
    const r = await run(['replay', 'usage-to-invoice', '--quiet'])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('report in .service-sim/reports/usage-to-invoice/7')
    expect(existsSync(join(app, '.service-sim', 'reports', 'usage-to-invoice', '7', 'report.json'))).toBe(true)
    expect(existsSync(join(app, 'reports'))).toBe(false)
  }, 60_000)

  it('resolves scenarios/<name>.yaml to the bundled scenario and writes the report where --out says', async () => {
    const r = await run(['replay', 'scenarios/secret-roll.yaml', '--quiet', '--out', 'my-reports'])
    expect(r.code).toBe(0)
    expect(existsSync(join(app, 'my-reports', 'secret-roll'))).toBe(true)
    expect(existsSync(join(app, '.service-sim'))).toBe(false)
  }, 60_000)

  it('prefers a local file of the same name over the bundled one', async () => {
    mkdirSync(join(app, 'scenarios'))
    writeFileSync(
      join(app, 'scenarios', 'default.yaml'),
      'name: mine\nworkload:\n  - request: { path: /v1/account }\n    expect: { status: 200 }\n',
    )
    const r = await run(['replay', 'scenarios/default.yaml', '--no-report', '--quiet'])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^mine seed/m)
  })

  it('refuses a file that is neither local nor bundled, listing the bundled names (exit 2)', async () => {
    const r = await run(['replay', 'scenarios/usage-to-invoices.yaml'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('scenarios/usage-to-invoices.yaml: no such file, and no bundled scenario of that name')
    for (const name of bundled) expect(r.stderr).toContain(name)
  })

  it('fuzzes a bundled scenario by name', async () => {
    const r = await run(['fuzz', '--scenario', 'default', '--runs', '2', '--out', 'out', '--failures', 'failures'])
    expect(r.code).toBe(0)
    expect(existsSync(join(app, 'out', 'fuzz', 'default'))).toBe(true)
  }, 60_000)
})

describe('the installed bin', () => {
  it('replays a bundled scenario by name from any directory', () => {
    const app = mkdtempSync(join(tmpdir(), 'service-sim-bin-'))
    try {
      const r = cli(['replay', 'default', '--no-report', '--quiet'], app)
      expect(r.stderr).toBe('')
      expect(r.code).toBe(0)
      expect(r.stdout).toMatch(/^default seed 42 \(trace [0-9a-f]{16}\): all \d+ expectations hold/m)
    } finally {
      rmSync(app, { recursive: true, force: true })
    }
  }, 60_000)
})
