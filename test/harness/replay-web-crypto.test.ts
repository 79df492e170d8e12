import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { checkSubscriptionMirror, type FlowCheckResult } from 'service-sim/harness'
import { beforeAll, describe, expect, it } from 'vitest'
import { run } from '../cli/in-process.js'
import { client, webCryptoAtOnce } from './fixtures/web-crypto-probe-client.js'

const CLIENT = join(import.meta.dirname, 'fixtures', 'web-crypto-probe-client.ts')
const check = { numRuns: 20, seed: 1, name: 'web-crypto-probe' } as const

/** Replays a file with the probing client, answering the CLI's output and how Web Crypto answered each deploy. */
async function replay(file: string) {
  webCryptoAtOnce.length = 0
  const out = await run(['replay', file, '--client', CLIENT, '--no-report'])
  return { ...out, atOnce: [...webCryptoAtOnce] }
}

describe('a counterexample found with the real Web Crypto (deterministicCrypto: false)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'service-sim-web-crypto-'))
  let result: FlowCheckResult
  let file: { harness: Record<string, unknown> }

  beforeAll(async () => {
    result = await checkSubscriptionMirror(client, { ...check, deterministicCrypto: false, scenarioDir: dir })
    file = JSON.parse(readFileSync(result.scenarioFile as string, 'utf8'))
  }, 60_000)

  it('records it in the scenario file', () => {
    expect(result.ok).toBe(false)
    expect(file.harness.deterministic_crypto).toBe(false)
  })

  it('replays with the real Web Crypto, to the same violation and trace hash', async () => {
    const replayed = await replay(result.scenarioFile as string)
    expect(replayed.stdout).toContain('FAIL checker mirror.')
    expect(replayed.stdout).toMatch(/ok +reproduces the recorded trace hash/)
    expect(replayed.atOnce.length).toBeGreaterThan(0)
    expect(replayed.atOnce.every((atOnce) => !atOnce)).toBe(true)
  })

  it("replays a file without it, as files were written before, with the harness's Web Crypto", async () => {
    const older = join(dir, 'without-deterministic-crypto.json')
    const { deterministic_crypto: _, ...harness } = file.harness
    writeFileSync(older, JSON.stringify({ ...file, harness }))
    const replayed = await replay(older)
    expect(replayed.stdout).toMatch(/ok +reproduces the recorded trace hash/)
    expect(replayed.atOnce.length).toBeGreaterThan(0)
    expect(replayed.atOnce.every((atOnce) => atOnce)).toBe(true)
  })

  it('refuses a file whose deterministic_crypto is not a boolean, naming the field', async () => {
    const bad = join(dir, 'bad-deterministic-crypto.json')
    writeFileSync(bad, JSON.stringify({ ...file, harness: { ...file.harness, deterministic_crypto: 'no' } }))
    const replayed = await replay(bad)
    expect(replayed.code).not.toBe(0)
    expect(replayed.stderr).toContain('harness.deterministic_crypto')
    expect(replayed.atOnce).toEqual([])
  })
})

describe('a counterexample found with the default Web Crypto', () => {
  it('leaves deterministic_crypto out of the file, which reads as before', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'service-sim-web-crypto-default-'))
    const result = await checkSubscriptionMirror(client, { ...check, scenarioDir: dir })
    const file = JSON.parse(readFileSync(result.scenarioFile as string, 'utf8')) as { harness: Record<string, unknown> }
    expect(result.ok).toBe(false)
    expect(Object.keys(file.harness)).not.toContain('deterministic_crypto')
  }, 60_000)
})
