import { describe, expect, it } from 'vitest'
import { run } from './in-process.js'

describe('--header-prefix on every command that builds a simulator', () => {
  it('replay and fuzz run the default scenario with the Stripe prefix, and refuse a prefix that is no header token', async () => {
    const replay = await run(['replay', '--header-prefix', 'Stripe', '--no-report', '--quiet'])
    expect(replay.code, replay.stdout + replay.stderr).toBe(0)
    const fuzz = await run([
      'fuzz',
      '--header-prefix',
      'Stripe',
      '--runs',
      '1',
      '--report',
      '/tmp/service-sim-hp',
      '--failures',
      '/tmp/service-sim-hp/f',
    ])
    expect(fuzz.code, fuzz.stdout + fuzz.stderr).toBe(0)
    for (const command of ['replay', 'fuzz', 'serve']) {
      const bad = await run([command, '--header-prefix', 'Str ipe'])
      expect(bad.code, command).toBe(2)
      expect(bad.stderr, command).toContain('--header-prefix')
    }
  }, 120_000)
})
