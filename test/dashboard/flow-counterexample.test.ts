import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CounterexampleSource } from '../../src/cli/counterexample/counterexample-source.js'
import { startOpenServer } from '../../src/cli/counterexample/open-server.js'
import type { Moment, Walkthrough } from '../../src/cli/counterexample/walkthrough.js'
import {
  buggyDunningClients,
  buggySubscriptionMirrors,
  checkDunning,
  checkSubscriptionMirror,
  type FlowCheckResult,
} from '../../src/harness/index.js'
import { run } from '../cli/in-process.js'
import { call } from '../cli/node-request.js'

const TOKEN = 'flow-counterexample-token'
const auth = { Authorization: `Bearer ${TOKEN}` }
const variant = <T extends { name: string }>(list: readonly T[], name: string): T => list.find((v) => v.name === name) as T

describe("a billing flow property's counterexample, step by step", () => {
  const dir = mkdtempSync(join(tmpdir(), 'service-sim-flow-cx-'))
  let dunning: FlowCheckResult
  let mirror: FlowCheckResult
  let server: Server
  let port = 0
  const walk = async (result: FlowCheckResult) => {
    const name = encodeURIComponent(basename(result.scenarioFile as string))
    const answer = await call(port, `/__dashboard/counterexamples/${name}`, { headers: auth })
    expect(answer.status, answer.body).toBe(200)
    return JSON.parse(answer.body) as Walkthrough
  }

  beforeAll(async () => {
    // A dunning client that sends a notice for every delivery of a failed payment, and a mirror
    // that ignores deletions: both bundled buggy variants, both saved where `open` reads them. Seed
    // 1: a notice repeated (seed 2's programs, since the dunning stories grew, show the client's
    // other side, no notice for a cycle whose first failure it accepted is a later attempt).
    dunning = await checkDunning(variant(buggyDunningClients, 'no-dedup').factory, { numRuns: 30, seed: 1, scenarioDir: dir })
    mirror = await checkSubscriptionMirror(variant(buggySubscriptionMirrors, 'ignores-deleted').factory, {
      numRuns: 30,
      scenarioDir: dir,
    })
    // A flow written by hand: the first delivery slowed past the time-out, a redeploy, a forgery.
    writeFileSync(
      join(dir, 'adversity.json'),
      JSON.stringify({
        name: 'adversity',
        seed: 3,
        harness: { flow: 'subscription_mirror', client: 'reference' },
        workload: [
          { client: { action: 'subscribe', args: { customer: 0, plan: 0, quantity: 1, trialDays: 0 } } },
          { client: { action: 'redeploy' } },
          { client: { action: 'forge', args: { forgery: 'wrong_secret', aim: 'customer.subscription.' } } },
        ],
        faults: { schedule: [{ step: 1, fault: 'receiver_slow', count: 1, delay: 20_000 }] },
      }),
    )
    server = await startOpenServer(new CounterexampleSource(dir), { token: TOKEN })
    port = (server.address() as AddressInfo).port
  }, 120_000)
  afterAll(
    () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  )

  it('writes the shrunk program as a flow scenario naming the property and the bundled client', () => {
    expect(dunning.ok).toBe(false)
    const scenario = JSON.parse(readFileSync(dunning.scenarioFile as string, 'utf8'))
    expect(scenario.harness).toMatchObject({ flow: 'dunning', client: 'no-dedup' })
    expect(scenario.workload).toHaveLength(dunning.counterexample?.steps.length ?? -1)
    expect(scenario.description).toContain(`Replays to trace hash ${dunning.traceHash}`)
    expect(dunning.replay?.scenarioFile).toBe(dunning.scenarioFile)
  })

  it('refuses a scenarioDir or name that is not a non-empty string, naming the check and the option', async () => {
    const factory = variant(buggyDunningClients, 'no-dedup').factory
    await expect(checkDunning(factory, { numRuns: 1, scenarioDir: '' })).rejects.toThrow(
      "checkDunning: option 'scenarioDir' must be a non-empty string",
    )
    await expect(checkDunning(factory, { numRuns: 1, name: 7 as unknown as string })).rejects.toThrow(
      "checkDunning: option 'name' must be a non-empty string",
    )
  })

  it('replays to the trace of the failing run, one frame per program step, each delivery with what the app answered', async () => {
    const w = await walk(dunning)
    expect(w.traceHash).toBe(dunning.traceHash)
    expect(w.verdicts.find((v) => v.name === 'reproduces the recorded trace hash')?.ok).toBe(true)
    expect(w.steps).toHaveLength((dunning.counterexample?.steps.length ?? 0) + 2)
    expect(w.steps.slice(1, -1).map((s) => s.label)).toEqual(dunning.steps)
    const deliveries = w.steps.flatMap((s) => s.moments).filter((m) => m.kind === 'delivery')
    expect(deliveries.length).toBeGreaterThan(2)
    for (const d of deliveries)
      if (d.kind === 'delivery' && d.status !== null) {
        expect(d.answer, `${d.type} ${d.event}`).toBe('ok')
        expect(d.duration).toBeGreaterThanOrEqual(0)
      }
    // The setup's requests stay in the setup; each step holds what its own actions did.
    expect(w.steps[0]?.moments.some((m) => m.kind === 'request' && m.path === '/v1/customers')).toBe(true)
    expect(w.steps[1]?.moments.some((m) => m.kind === 'request' && m.path === '/v1/subscriptions')).toBe(true)
  })

  it("marks the witnesses: the app's action, the event it was handling and the provider's state", async () => {
    const w = await walk(dunning)
    const violated = w.verdicts.find((v) => !v.ok)
    expect(violated?.name).toBe(`checker ${dunning.violations?.[0]?.checker}`)
    const moments: Moment[] = w.steps.flatMap((s) => s.moments)
    const witnesses = moments.filter((m) => m.witness?.includes(violated?.name ?? ''))
    expect(witnesses.map((m) => m.seq)).toEqual(violated?.witness)
    const actions = witnesses.filter((m) => m.kind === 'action')
    expect(actions.length).toBeGreaterThan(1)
    // The no-dedup client breaks either rule, whichever the drawn program shows: a notice or a restore repeated.
    const [action, handled] = violated?.name.endsWith('restored_once')
      ? ['dunning.restore', /^invoice\.paid evt_\w+ about in_\w+ \(invoice, status paid/]
      : ['dunning.notice', /^invoice\.payment_failed evt_\w+ about in_\w+ \(invoice, status open/]
    for (const a of actions) {
      if (a.kind !== 'action') continue
      expect(a.action).toBe(action)
      expect(a.handled).toMatch(handled)
      expect(a.provider).toMatch(/^in_\w+ \(invoice, status \w+/)
    }
    expect(w.steps[w.violationStep]?.moments.some((m) => m.seq === violated?.witness.at(-1))).toBe(true)
  })

  it("says in words what a mirror granted and how its copy differs from the provider's", async () => {
    const w = await walk(mirror)
    const moments = w.steps.flatMap((s) => s.moments)
    const said = moments.flatMap((m) => (m.kind === 'note' && m.witness !== undefined ? [m.says] : []))
    expect(said).toContainEqual(
      expect.stringMatching(/^grants access for cus_\w+; the provider's subscriptions: sub_\w+ canceled/),
    )
    expect(said).toContainEqual(expect.stringMatching(/status: app active, provider canceled/))
  })

  it('shows a delivery that timed out, a redeploy, and a forged delivery with what the app answered it', async () => {
    const answer = await call(port, '/__dashboard/counterexamples/adversity.json', { headers: auth })
    const w = JSON.parse(answer.body) as Walkthrough
    const [, first, second, third] = w.steps
    const slowed = first?.moments.find((m) => m.kind === 'delivery' && m.outcome === 'timeout')
    expect(slowed).toMatchObject({ kind: 'delivery', status: null, type: 'customer.subscription.created' })
    expect(first?.moments.some((m) => m.kind === 'fault' && m.fault === 'receiver_slow')).toBe(true)
    expect(second?.moments.filter((m) => m.kind === 'redeploy')).toMatchObject([{ reason: 'deploy', restart: 1 }])
    expect(third?.moments.filter((m) => m.kind === 'forged')).toMatchObject([
      { forgery: 'wrong_secret', outcome: 'refused', status: 400, type: expect.stringMatching(/^customer\.subscription\./) },
    ])
  })

  it('replays the file with service-sim replay to the same verdicts', async () => {
    const replayed = await run(['replay', dunning.scenarioFile as string])
    expect(replayed.stdout).toContain(dunning.violations?.[0]?.checker)
    expect(replayed.stdout).toContain('reproduces the recorded trace hash')
  })
})
