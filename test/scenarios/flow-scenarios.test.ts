import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadScenarioFile } from '../../src/harness/scenario/load-scenario.js'
import { runScenario } from '../../src/harness/scenario/run-scenario.js'
import { run } from '../cli/in-process.js'

const DIR = join(import.meta.dirname, '..', '..', 'scenarios')
const FLOWS = ['fulfilment-races', 'subscription-mirror', 'dunning', 'thin-event-races'] as const
const work = mkdtempSync(join(tmpdir(), 'flow-scenarios-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** A copy of a bundled flow scenario with another client named in it. */
function withClient(name: (typeof FLOWS)[number], client: string): string {
  const file = join(work, `${name}-${client.replace(/\W/g, '')}.yaml`)
  writeFileSync(file, readFileSync(join(DIR, `${name}.yaml`), 'utf8').replace('client: reference', `client: ${client}`))
  return file
}

const hashOf = (stdout: string) => /\(trace ([0-9a-f]{16})\)/.exec(stdout)?.[1]

describe('bundled flow scenarios', () => {
  for (const name of FLOWS) {
    it(`replays ${name} twice to the same trace hash, every expectation holding`, async () => {
      const first = await run(['replay', join(DIR, `${name}.yaml`), '--no-report', '--quiet'])
      const second = await run(['replay', join(DIR, `${name}.yaml`), '--no-report', '--quiet'])
      expect(first.stderr).toBe('')
      expect(first.code).toBe(0)
      expect(first.stdout).toMatch(/all \d+ expectations hold/)
      expect(hashOf(first.stdout)).toBeDefined()
      expect(hashOf(second.stdout)).toBe(hashOf(first.stdout))
    }, 60_000)
  }

  it.each([
    ['fulfilment-races', 'memory-dedupe', 'checker fulfilment.once'],
    ['fulfilment-races', 'event-id-dedupe', 'checker fulfilment.once'],
    ['subscription-mirror', 'last-delivered-wins', 'checker mirror.converged'],
    ['dunning', 'no-dedup', 'checker dunning.notice_once'],
    ['thin-event-races', 'stale', 'checker thin.fetched_state'],
  ] as const)(
    'fails %s against the bundled %s client',
    async (name, client, verdict) => {
      const result = await runScenario(loadScenarioFile(withClient(name, client)), { baseDir: work })
      expect(result.ok).toBe(false)
      expect(result.verdicts.filter((v) => !v.ok).map((v) => v.name)).toContain(verdict)
    },
    60_000,
  )

  it("runs the user's client from --client (its `client` export)", async () => {
    const module = join(work, 'shop.mjs')
    // Fulfils on every paid delivery, without deduplicating: the race with the page catches it.
    writeFileSync(
      module,
      `export const client = (env) => ({
        async handler(req) {
          const event = JSON.parse(await req.text())
          if (event.data.object.payment_status === 'paid') env.orders.fulfil(event.data.object.id)
          return new Response('ok')
        },
        successPage: () => new Response('thanks'),
      })\n`,
    )
    const r = await run(['replay', join(DIR, 'fulfilment-races.yaml'), '--client', module, '--no-report', '--quiet'])
    expect(r.code).toBe(1)
    expect(r.stdout).toContain('checker fulfilment.once')
  }, 60_000)

  it('refuses a client name that is neither bundled nor a module path (exit 2)', async () => {
    const r = await run(['replay', withClient('dunning', 'no-such-client'), '--no-report', '--quiet'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("names client 'no-such-client', which is not a bundled dunning client")
  })

  it('keeps the default scenario and its trace hash', async () => {
    const r = await run(['replay', '--no-report', '--quiet'])
    expect(r.stdout).toMatch(/^default seed 42 \(trace 938c7a53886ebc1c\): all \d+ expectations hold/m)
  }, 60_000)
})
