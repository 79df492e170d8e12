import { describe, expect, it } from 'vitest'
import { run } from './in-process.js'

describe('service-sim scenarios', () => {
  it('gives every bundled scenario a summary that says what happens, not just its mode', async () => {
    const r = await run(['scenarios'])
    expect(r.code).toBe(0)
    const rows = r.stdout.split('\n').filter((line) => /^[a-z0-9-]+ {2,}\S/.test(line))
    expect(rows.length).toBeGreaterThan(10)
    for (const row of rows) {
      const summary = row.replace(/^\S+\s+/, '')
      expect(summary.split(/\s+/).length, row).toBeGreaterThanOrEqual(4)
    }
    expect(r.stdout).toMatch(/^receiver-down-two-days +The receiver is down \(503\) for two days/m)
  })
})
