import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { verifySignature } from 'service-sim'
import {
  buggyWebhookReceivers,
  checkWebhookReceiver,
  createDurableStore,
  type Program,
  readScenarioFile,
  referenceWebhookReceiver,
  runProgram,
  type WebhookReceiverFactory,
} from 'service-sim/harness'
import { describe, expect, it } from 'vitest'

const RANK: Record<string, number> = { requires_payment_method: 0, processing: 1, succeeded: 2 }
const DAY = 24 * 3_600_000

interface Incoming {
  id: string
  type: string
  data: { object: { id: string; status: string } }
}

/**
 * A receiver as apps deploy it: its signing secrets read once at start-up (an environment
 * variable), processed event ids and the payments table in its database (`env.store`), or, with
 * `memoryDedup`, the processed ids in a Set that a redeploy loses.
 */
function startupSecretReceiver(options: { memoryDedup?: boolean } = {}): WebhookReceiverFactory {
  return (env) => {
    const secrets = env.secrets()
    const seen = new Set<string>()
    const { store } = env
    const first = async (id: string): Promise<boolean> => {
      if (options.memoryDedup) {
        if (seen.has(id)) return false
        seen.add(id)
        return true
      }
      return (await store.update(`event:${id}`, (at) => at ?? env.clock.now)) === undefined
    }
    return {
      async state() {
        const rows: Record<string, string> = {}
        for (const key of await store.keys('payment:')) rows[key.slice('payment:'.length)] = String(await store.get(key))
        return rows
      },
      async handler(req) {
        const raw = await req.text()
        try {
          verifySignature(raw, req.headers.get(`${env.prefix}-Signature`), secrets, { now: env.clock.now })
        } catch {
          return new Response('bad signature', { status: 400 })
        }
        const event = JSON.parse(raw) as Incoming
        if (!(await first(event.id))) return new Response('duplicate')
        const { id, status } = event.data.object
        env.effects.record(event.id, `${event.type}:${id}`)
        await store.update(`payment:${id}`, (held) =>
          held === undefined || (RANK[status] ?? 0) > (RANK[String(held)] ?? 0) ? status : held,
        )
        return new Response('ok')
      },
    }
  }
}

const rollThenThreeDays: Program = {
  seed: 4,
  steps: [
    { kind: 'emit', object: 0 },
    { kind: 'roll_secret' },
    { kind: 'advance', ms: 3 * DAY },
    { kind: 'emit', object: 0 },
    { kind: 'emit', object: 0 },
  ],
  faults: [],
}

describe('redeploys: the harness restarts a receiver from its factory', () => {
  it('passes a receiver that reads its secret once at start-up after a roll and three days (the operator redeploys it)', async () => {
    const report = await runProgram(rollThenThreeDays, { webhook: startupSecretReceiver() })
    expect(report.violations).toEqual([])
    const restarts = report.sim.service.kernel.trace.entries().filter((e) => e.kind === 'harness.restart')
    expect(restarts.map((e) => e.data)).toEqual([{ subject: 'receiver', reason: 'secret_rolled', restart: 1 }])
  })

  it('passes the start-up-secret receiver over generated programs with rolls, restarts and every delivery fault', async () => {
    const result = await checkWebhookReceiver(startupSecretReceiver(), { numRuns: 60, seed: 11 })
    expect(result.violations ?? []).toEqual([])
    expect(result.ok).toBe(true)
  })

  it('builds a new instance on a restart step: its memory is gone, its store is not', async () => {
    const instances: number[] = []
    const counting: WebhookReceiverFactory = (env) => {
      instances.push(instances.length)
      const inner = referenceWebhookReceiver(env)
      return { handler: (req) => inner.handler(req), state: () => inner.state() }
    }
    const program: Program = {
      seed: 2,
      steps: [{ kind: 'emit', object: 1 }, { kind: 'advance', ms: 60_000 }, { kind: 'restart' }, { kind: 'emit', object: 1 }],
      faults: [],
    }
    const report = await runProgram(program, { webhook: counting })
    expect(report.violations).toEqual([])
    expect(instances).toEqual([0, 1])
  })

  it('catches a receiver that deduplicates in memory only, with a restart between duplicates in a small counterexample', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'redeploy-'))
    const result = await checkWebhookReceiver(startupSecretReceiver({ memoryDedup: true }), {
      numRuns: 100,
      seed: 3,
      scenarioDir: dir,
      name: 'memory-dedup',
    })
    expect(result.ok).toBe(false)
    expect(result.violations?.map((v) => v.checker)).toContain('receivers.effects_once')
    const steps = result.counterexample?.steps ?? []
    expect(steps.length).toBeLessThanOrEqual(4)
    expect(steps.some((s) => s.kind === 'restart' || s.kind === 'roll_secret')).toBe(true)
    // The restart is a step of the saved scenario, and the file replays to the same failure.
    const file = result.scenarioFile as string
    expect(readFileSync(file, 'utf8')).toMatch(/"action": "(restart_client|roll_secret)"/)
    const { program, faults } = readScenarioFile(file)
    const replayed = await runProgram(program, { webhook: startupSecretReceiver({ memoryDedup: true }), faults })
    expect(replayed.violations.map((v) => v.checker)).toContain('receivers.effects_once')
    // The same receiver deduplicating in its store passes the counterexample.
    expect((await runProgram(program, { webhook: startupSecretReceiver(), faults })).violations).toEqual([])
  })

  it("catches the bundled 'dedup-in-memory' variant and passes the reference, which keeps its rows in env.store", async () => {
    const variant = buggyWebhookReceivers.find((v) => v.name === 'dedup-in-memory')?.factory as WebhookReceiverFactory
    const bad = await checkWebhookReceiver(variant, { numRuns: 100, seed: 5 })
    expect(bad.ok).toBe(false)
    expect(bad.counterexample?.steps.length).toBeLessThanOrEqual(10)
    const good = await checkWebhookReceiver(referenceWebhookReceiver, { numRuns: 60, seed: 5 })
    expect(good.violations ?? []).toEqual([])
  })

  it('replays a program with restarts to the same trace hash', async () => {
    const program: Program = { ...rollThenThreeDays, steps: [...rollThenThreeDays.steps, { kind: 'restart' }] }
    const a = await runProgram(program, { webhook: referenceWebhookReceiver })
    const b = await runProgram(program, { webhook: referenceWebhookReceiver })
    expect(a.traceHash).toBe(b.traceHash)
  })
})

describe('env.store', () => {
  it('keeps JSON copies: a value changed after set is not changed in the store', async () => {
    const store = createDurableStore()
    const row = { status: 'paid', lines: [1, 2] }
    await store.set('order:1', row)
    row.lines.push(3)
    expect(await store.get('order:1')).toEqual({ status: 'paid', lines: [1, 2] })
    expect(await store.has('order:1')).toBe(true)
    expect(await store.keys('order:')).toEqual(['order:1'])
    expect(await store.delete('order:1')).toBe(true)
    expect(await store.get('order:1')).toBeUndefined()
  })

  it('inserts if absent atomically with update, and refuses a value that is not JSON', async () => {
    const store = createDurableStore()
    const results = await Promise.all([1, 2].map((n) => store.update('event:e', (prev) => prev ?? n)))
    expect(results).toEqual([undefined, 1])
    expect(await store.get('event:e')).toBe(1)
    await expect(store.set('bad', (() => 1) as never)).rejects.toThrow(/not JSON/)
  })
})
