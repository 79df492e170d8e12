import { type ChildProcess, fork } from 'node:child_process'
import { on } from 'node:events'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readStateFile } from '../../src/cli/state-file.js'
import { createSimulator, type Simulator } from '../../src/simulator/create-simulator.js'
import type { Snapshot } from '../../src/simulator/snapshot.js'
import { startServeCli } from '../cli/serve-cli.js'

const KILLS = 100
const dir = mkdtempSync(join(tmpdir(), 'serve-kill-'))
const saver = join(dir, 'saver.mjs')

// The child is the state file's real writer with nothing else loaded, so a hundred processes
// start in a few seconds; what it writes are snapshots of real simulators.
beforeAll(async () => {
  await build({
    entryPoints: [fileURLToPath(new URL('../../src/cli/state-file.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: join(dir, 'state-file.mjs'),
    logLevel: 'error',
  })
  writeFileSync(
    saver,
    `import { writeStateFile } from './state-file.mjs'
process.on('message', (m) => {
  const snapshot = JSON.parse(m.text)
  process.send({ started: m.n })
  const t0 = performance.now()
  writeStateFile(m.file, snapshot)
  process.send({ saved: m.n, ms: performance.now() - t0 })
})
process.send({ ready: true })
`,
  )
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Seeded, so a failing kill moment comes back on the next run. */
function prng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0
    return s / 2 ** 32
  }
}

const key = (sim: Simulator) => sim.platform.secretKey.test
async function createCustomer(sim: Simulator, name: string): Promise<void> {
  const r = await sim.fetch('https://api.service.test/v1/customers', {
    method: 'POST',
    headers: { Authorization: `Bearer ${key(sim)}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: `name=${name}&description=${'x'.repeat(500)}`,
  })
  if (r.status !== 200) throw new Error(await r.text())
}

describe('serve --state survives SIGKILL during saves', () => {
  it(`${KILLS} kills at seeded random moments during saves: every state file left loads and goes on with the hash of the last acknowledged save (or of the save in flight, done but not yet acknowledged)`, async () => {
    // Saves 0..n: a real simulator after 0, 1, 2, ... customers, with their trace hashes.
    const sim = createSimulator({ seed: 11, start: 0, limits: false })
    const saves: { text: string; hash: string }[] = []
    const save = async (i: number) => {
      while (saves.length <= i) {
        if (saves.length > 0) await createCustomer(sim, `c${saves.length}`)
        await sim.settle()
        saves.push({ text: JSON.stringify(sim.snapshot()), hash: sim.trace.hash() })
      }
      return saves[i] as { text: string; hash: string }
    }
    const file = join(dir, 'state.json')
    const random = prng(24)
    let acknowledged = -1
    const outcomes = { acknowledged: 0, inFlight: 0, fellBack: 0, midWrite: 0 }
    for (let round = 0; round < KILLS; round++) {
      const child: ChildProcess = fork(saver, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
      const exited = new Promise<void>((done) => child.once('exit', () => done()))
      // events.on buffers every message until it is read: two messages that arrive in one
      // chunk are both kept (a hand-made queue with one waiter lost the second and hung).
      const inbox = on(child, 'message')
      const next = async (): Promise<{ saved?: number; ready?: boolean; started?: number; ms?: number }> => {
        const timeout = new Promise<never>((_, fail) => {
          const t = setTimeout(() => fail(new Error(`round ${round}: no message from the saver in 20 s`)), 20_000)
          t.unref()
        })
        const r = await Promise.race([inbox.next(), timeout])
        return (r.value as [{ saved?: number; ready?: boolean; started?: number; ms?: number }])[0]
      }
      await next() // ready
      // One save acknowledged, then a kill while the next is being written.
      const n = acknowledged + 1
      child.send({ file, text: (await save(n)).text, n })
      expect((await next()).started).toBe(n)
      const done = await next()
      expect(done.saved).toBe(n)
      acknowledged = n
      child.send({ file, text: (await save(n + 1)).text, n: n + 1 })
      expect((await next()).started).toBe(n + 1)
      // A moment within (about) the time a save takes, from the moment this one started.
      const delay = random() * 1.5 * (done.ms ?? 1)
      const until = performance.now() + delay
      while (performance.now() < until) {
        // Spin: a timer cannot wait a fraction of a millisecond.
      }
      child.kill('SIGKILL')
      await exited
      await inbox.return?.()
      if (readdirSync(dir).some((f) => f.endsWith('.tmp'))) outcomes.midWrite++
      const read = readStateFile(file)
      expect(read, `round ${round}`).toBeDefined()
      if (read?.fellBack) outcomes.fellBack++
      const loaded = createSimulator({ from: read?.snapshot as Snapshot })
      const hash = loaded.trace.hash()
      const inFlight = hash === saves[n + 1]?.hash
      expect(hash === saves[n]?.hash || inFlight, `round ${round}: a state file of neither save`).toBe(true)
      if (inFlight) {
        outcomes.inFlight++
        acknowledged = n + 1
      } else outcomes.acknowledged++
      // It goes on: the same next step gives the same hash as the run that saved it.
      if (round % 10 === 0) {
        const again = createSimulator({ from: JSON.parse((await save(acknowledged)).text) as Snapshot })
        await createCustomer(loaded, 'next')
        await createCustomer(again, 'next')
        expect(loaded.trace.hash()).toBe(again.trace.hash())
      }
      // Reading it (as a restarted serve does) removed what the interrupted save left.
      expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([])
    }
    process.stdout.write(`kill loop: ${JSON.stringify(outcomes)}\n`)
    expect(outcomes.acknowledged + outcomes.inFlight).toBe(KILLS)
    // Both kinds of moment were hit: mid-write (the acknowledged save stays) and after the rename.
    expect(outcomes.acknowledged).toBeGreaterThan(0)
    expect(outcomes.midWrite).toBeGreaterThan(0)
  }, 120_000)

  it('the real serve killed with SIGKILL during POST /__sim/snapshot leaves a file the next start loads', async () => {
    const file = join(dir, 'serve-state.json')
    const args = ['--clock', 'manual', '--seed', '5', '--admin-token', 'none', '--state', file]
    const random = prng(7)
    let customers = 0
    for (let round = 0; round < 2; round++) {
      const served = await startServeCli(args)
      if (round > 0) expect(served.out()).toContain('state loaded')
      const base = `http://127.0.0.1:${served.port}`
      const list = await fetch(`${base}/v1/customers?limit=100`, { headers: { Authorization: `Bearer ${served.key}` } })
      const have = ((await list.json()) as { data: unknown[] }).data.length
      // The last acknowledged save, or the one in flight when the kill came.
      expect([customers, customers + 1]).toContain(have)
      customers = have
      await fetch(`${base}/v1/customers`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${served.key}`, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'name=a',
      })
      const saved = await fetch(`${base}/__sim/snapshot`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      })
      expect(saved.status).toBe(200)
      customers++
      await fetch(`${base}/v1/customers`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${served.key}`, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'name=b',
      })
      void fetch(`${base}/__sim/snapshot`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }).catch(
        () => undefined,
      )
      await new Promise((r) => setTimeout(r, random() * 20))
      await served.stop('SIGKILL')
    }
  }, 60_000)
})
