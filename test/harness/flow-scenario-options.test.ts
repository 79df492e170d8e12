import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  buggySubscriptionMirrors,
  checkFulfilment,
  checkSubscriptionMirror,
  type FlowCheckResult,
  referenceFulfilmentClient,
  referenceSubscriptionMirror,
} from '../../src/harness/index.js'
import { run } from '../cli/in-process.js'

// A mirror that promises a week of grace on a failed renewal and revokes at the first failure:
// wrong only under its own policy, so its counterexample means nothing replayed without it.
const revokes = buggySubscriptionMirrors.find((v) => v.name === 'revokes-on-first-failure')
if (revokes?.options === undefined) throw new Error('the bundled revokes-on-first-failure variant has options')

describe("a flow counterexample file keeps the property's own options", () => {
  const dir = mkdtempSync(join(tmpdir(), 'service-sim-flow-options-'))
  let result: FlowCheckResult
  let file: Record<string, { options?: unknown }> & { harness: { options?: unknown } }

  beforeAll(async () => {
    result = await checkSubscriptionMirror(revokes.factory, { ...revokes.options, numRuns: 60, seed: 1, scenarioDir: dir })
    file = JSON.parse(readFileSync(result.scenarioFile as string, 'utf8'))
  }, 120_000)

  it('writes the access policy the check ran with into harness.options', () => {
    expect(result.ok).toBe(false)
    expect(file.harness.options).toEqual(revokes.options)
  })

  it('replays the file under that policy to the same violation and trace hash', async () => {
    const replayed = await run(['replay', result.scenarioFile as string, '--no-report'])
    expect(replayed.stdout).toContain('FAIL checker mirror.access_withheld')
    expect(replayed.stdout).toMatch(/ok +reproduces the recorded trace hash/)
  })

  it('judges the same program by the default policy when the options are taken out', async () => {
    const bare = join(dir, 'without-options.json')
    writeFileSync(bare, JSON.stringify({ ...file, harness: { ...file.harness, options: undefined } }))
    const replayed = await run(['replay', bare, '--no-report'])
    expect(replayed.stdout).not.toContain('mirror.access_withheld')
  })

  it('refuses a file whose harness.options the property does not know, naming the option', async () => {
    const bad = join(dir, 'bad-options.json')
    writeFileSync(bad, JSON.stringify({ ...file, harness: { ...file.harness, options: { access: { grant: ['active'] } } } }))
    const replayed = await run(['replay', bad, '--no-report'])
    expect(replayed.code).not.toBe(0)
    expect(replayed.stderr).toContain("harness.options 'access.grant' is not known")
  })
})

describe("the flow properties' own options", () => {
  it('refuses an access policy of the wrong shape, naming the option', async () => {
    await expect(
      checkSubscriptionMirror(referenceSubscriptionMirror, { numRuns: 1, access: { grants: 'active' as never } }),
    ).rejects.toThrow(/^checkSubscriptionMirror: option 'access\.grants' is invalid: .*expected array, received string/)
    await expect(checkSubscriptionMirror(referenceSubscriptionMirror, { numRuns: 1, pastDueGraceMs: -1 })).rejects.toThrow(
      /^checkSubscriptionMirror: option 'pastDueGraceMs' is invalid/,
    )
  })

  it('refuses payments that name no payment method, naming the option', async () => {
    await expect(
      checkFulfilment(referenceFulfilmentClient, { numRuns: 1, payments: [{ authentication: 'succeed' } as never] }),
    ).rejects.toThrow(/^checkFulfilment: option 'payments\.0\.paymentMethod' is invalid/)
    await expect(checkFulfilment(referenceFulfilmentClient, { numRuns: 1, payments: [] })).rejects.toThrow(
      /^checkFulfilment: option 'payments' is invalid/,
    )
  })
})
