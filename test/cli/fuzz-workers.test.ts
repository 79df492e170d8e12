import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { run } from './in-process.js'
import { cli } from './run-cli.js'

const tmp = () => mkdtempSync(join(tmpdir(), 'service-sim-'))

// Fails whenever the seeded policy expires the session before the second stream request.
const FLAKY = [
  'name: flaky-workers',
  'workload:',
  '  - request: { method: POST, path: /v2/billing/meter_event_session, save: s }',
  '  - request: { method: POST, path: /v2/billing/meter_event_stream, token: "{{s.authentication_token}}", body: { events: [] } }',
  '    expect: { status: [200, 202, 400] }',
  '  - request: { method: POST, path: /v2/billing/meter_event_stream, token: "{{s.authentication_token}}", body: { events: [] } }',
  '    expect: { status: [200, 202, 400] }',
  'faults:',
  '  policy: { rates: { session_expiry: 0.5 } }',
  '',
].join('\n')

/** The failures a campaign saved: file name and text (its own directory's name left out), in name order. */
const saved = (dir: string) =>
  readdirSync(dir)
    .sort()
    .map((f) => [f, readFileSync(join(dir, f), 'utf8').replaceAll(dir, '<failures>')])

describe('service-sim fuzz --workers', () => {
  it('saves the same failing seeds, byte for byte, on two worker threads as in process', async () => {
    const dir = tmp()
    const file = join(dir, 'flaky.yaml')
    writeFileSync(file, FLAKY)
    const args = (out: string) => [
      'fuzz',
      '--scenario',
      file,
      '--runs',
      '8',
      '--report',
      join(dir, out),
      '--failures',
      join(dir, out, 'f'),
    ]
    const one = await run([...args('one'), '--workers', '1'])
    const two = cli([...args('two'), '--workers', '2'])
    expect(one.code).toBe(1)
    expect(two.code).toBe(1)
    const failures = saved(join(dir, 'one', 'f'))
    expect(failures.length).toBeGreaterThan(0)
    expect(saved(join(dir, 'two', 'f'))).toEqual(failures)
  }, 120_000)

  it('refuses a --workers that is not a whole number of threads from 1, naming the flag, before any run', async () => {
    for (const workers of ['0', 'two', '1.5']) {
      const r = await run(['fuzz', '--runs', '1', '--workers', workers])
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(new RegExp(`--workers: expected an integer >= [01] .*got '${workers}'`))
      expect(r.stdout).toBe('')
    }
    const negative = await run(['fuzz', '--runs', '1', '--workers', '-1'])
    expect(negative.code).toBe(2)
    expect(negative.stderr).toMatch(/Option '--workers'/)
  })
})
