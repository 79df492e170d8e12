import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buggyWebhookReceivers, checkWebhookReceiver } from 'service-sim/harness'
import { describe, expect, it } from 'vitest'
import { run } from './in-process.js'

describe('a counterexample found in the official client header names', () => {
  it('records the header prefix and replays with it to the failing run trace hash', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'service-sim-'))
    const noDedup = buggyWebhookReceivers.find((v) => v.name === 'no-dedup')!
    const found = await checkWebhookReceiver(noDedup.factory, {
      headerPrefix: 'Stripe',
      numRuns: 40,
      name: 'no-dedup',
      scenarioDir: dir,
    })
    expect(found.ok).toBe(false)
    const file = found.scenarioFile as string
    expect(JSON.parse(readFileSync(file, 'utf8')).header_prefix).toBe('Stripe')
    const r = await run(['replay', file, '--no-report'])
    expect(r.code).toBe(1)
    expect(r.stdout).toContain(`(trace ${(found.traceHash as string).slice(0, 16)})`)
    expect(r.stdout).toMatch(/ok {3}reproduces the recorded trace hash/)
  })
})
