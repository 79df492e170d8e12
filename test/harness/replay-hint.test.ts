import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  assertRun,
  buggyDunningClients,
  buggyWebhookReceivers,
  checkDunning,
  checkThinEventReceiver,
  checkWebhookReceiver,
  formatFailure,
  type Program,
  PropertyViolation,
  referenceWebhookReceiver,
  staleThinEventReceiver,
} from 'service-sim/harness'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const noDedup = buggyWebhookReceivers.find((v) => v.name === 'no-dedup')!.factory

/** What the checks print with console.error while `body` runs. */
async function printed(body: () => Promise<unknown>): Promise<string> {
  const lines: string[] = []
  const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void lines.push(args.join(' ')))
  try {
    await body()
  } finally {
    spy.mockRestore()
  }
  return lines.join('\n')
}

/** The command's `-t` pattern, unquoted, as vitest would match it against "<file> <suite> <test>". */
function namePattern(command: string): RegExp {
  const quoted = /-t '(.*)'$/.exec(command)?.[1] ?? ''
  return new RegExp(quoted.replaceAll(`'\\''`, "'"))
}

const HERE = 'test/harness/replay-hint.test.ts'

// First in the file: vitest's expect state keeps the last test's name through a later hook.
describe('a property checked in a hook, where no test is running', () => {
  let result: Awaited<ReturnType<typeof checkWebhookReceiver>>
  beforeAll(async () => {
    result = await checkWebhookReceiver(noDedup, { numRuns: 50, seed: 3 })
  }, 120_000)

  it('names the test file to run again, not the process vitest started', () => {
    expect(result.ok).toBe(false)
    expect(result.replay?.command).toBe('npx vitest run test/harness/replay-hint.test.ts')
  })
})

describe('every failing property prints how to replay it', () => {
  afterEach(() => vi.restoreAllMocks())

  it('a failing checkWebhookReceiver prints its seed and the command that runs this test again', async () => {
    let result: Awaited<ReturnType<typeof checkWebhookReceiver>> | undefined
    const out = await printed(async () => {
      result = await checkWebhookReceiver(noDedup, { numRuns: 20 })
    })
    expect(result?.ok).toBe(false)
    expect(result?.seed).toBe(42)
    expect(result?.replay?.command).toMatch(new RegExp(`^npx vitest run ${HERE} -t '`))
    const full = `${HERE} every failing property prints how to replay it a failing checkWebhookReceiver prints its seed and the command that runs this test again`
    expect(namePattern(result?.replay?.command ?? '').test(full)).toBe(true)
    expect(out).toContain('service-sim: checkWebhookReceiver failed:')
    expect(out).toContain('seed 42')
    expect(out).toContain(`replay: ${result?.replay?.command}`)
    expect(formatFailure(result!)).toContain(`replay: ${result?.replay?.command}`)
  }, 120_000)

  it('names the counterexample file when the check saved one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'replay-hint-'))
    let file: string | undefined
    const out = await printed(async () => {
      file = (await checkWebhookReceiver(noDedup, { numRuns: 20, scenarioDir: dir, name: 'no-dedup' })).replay?.scenarioFile
    })
    expect(file).toMatch(/\.json$/)
    expect(out).toContain(`counterexample saved to ${file}`)
  }, 120_000)

  it('prints nothing and gives no replay for a check that passes; formatFailure is empty', async () => {
    let ok: Awaited<ReturnType<typeof checkWebhookReceiver>> | undefined
    const out = await printed(async () => {
      ok = await checkWebhookReceiver(referenceWebhookReceiver, { numRuns: 3 })
    })
    expect(ok).toMatchObject({ ok: true })
    expect(ok?.replay).toBeUndefined()
    expect(formatFailure(ok!)).toBe('')
    expect(out).toBe('')
  }, 120_000)

  it('the flow checks (checkDunning) and checkThinEventReceiver print seed and replay too', async () => {
    const dunning = buggyDunningClients[0]!.factory
    const out = await printed(async () => {
      expect((await checkDunning(dunning, { numRuns: 20 })).replay?.seed).toBe(42)
      const thin = await checkThinEventReceiver(staleThinEventReceiver, { numRuns: 50, seed: 7 })
      expect(thin.replay).toMatchObject({ seed: 7, command: expect.stringMatching(/^npx vitest run /) })
    })
    expect(out).toMatch(/service-sim: checkDunning failed:[\s\S]*seed 42[\s\S]*replay: npx vitest run/)
    expect(out).toMatch(/service-sim: checkThinEventReceiver failed:[\s\S]*seed 7[\s\S]*replay: npx vitest run/)
  }, 120_000)

  it("assertRun's PropertyViolation carries the command in its message", async () => {
    const program: Program = {
      seed: 3,
      steps: [
        { kind: 'emit', object: 0 },
        { kind: 'advance', ms: 60_000 },
      ],
      faults: [{ step: 1, fault: 'duplicate_delivery' }],
    }
    const error = await assertRun(program, { webhook: noDedup }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PropertyViolation)
    expect((error as PropertyViolation).replay).toMatch(new RegExp(`^npx vitest run ${HERE} -t '`))
    expect((error as Error).message).toContain(`replay: ${(error as PropertyViolation).replay}`)
  })

  it('outside vitest, the command is the one the script was started with', () => {
    mkdirSync(join(ROOT, 'test', '.generated'), { recursive: true })
    const dir = mkdtempSync(join(ROOT, 'test', '.generated', 'replay-'))
    const script = join(dir, 'check.ts')
    writeFileSync(
      script,
      `import { buggyWebhookReceivers, checkWebhookReceiver } from '../../../src/harness/index.ts'\nawait checkWebhookReceiver(buggyWebhookReceivers[0]!.factory, { numRuns: 20 })\n`,
    )
    const r = spawnSync(process.execPath, ['--import', 'tsx', script], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 })
    expect(r.stderr).toContain('seed 42')
    expect(r.stderr).toMatch(/replay: node --import tsx test\/\.generated\/replay-\w+\/check\.ts/)
  }, 120_000)
})
