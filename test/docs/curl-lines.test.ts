import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { commandLines } from './command-lines.js'
import { packedFiles, root, shippedDocs } from './shipped-docs.js'

/**
 * Every `curl` line of the shipped docs, run as written against a real `service-sim serve`: the
 * documented port is the served one, `$SERVICE_SIM_ADMIN_TOKEN` is set as the reader's shell would
 * have it, and each id the doc elides is one of a real object of the right kind. A line must answer
 * 2xx. A new elided id needs its stand-in below, so no line is skipped silently.
 */
const ELIDED: Record<string, (ids: Ids) => string> = {
  'cs_test_...': (ids) => ids.checkoutSession,
}

interface Ids {
  readonly checkoutSession: string
}

const TOKEN = 'docs-curl-token'
const docs = shippedDocs(packedFiles())
const curls = docs.flatMap((doc) =>
  commandLines(doc, readFileSync(join(root, doc), 'utf8'))
    .flatMap((l) => l.text.split(/\s*&&\s*/).map((text) => ({ ...l, text })))
    .filter((l) => l.text.startsWith('curl ')),
)

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })
}

async function waitUntilServing(port: number, child: ChildProcess, log: () => string): Promise<void> {
  let exited = false
  child.on('exit', () => {
    exited = true
  })
  for (let i = 0; i < 600; i++) {
    if (exited) throw new Error(`serve exited: ${log()}`)
    const up = await fetch(`http://127.0.0.1:${port}/v1/account`).then(
      () => true,
      () => false,
    )
    if (up) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`serve did not start: ${log()}`)
}

describe.skipIf(spawnSync('curl', ['--version']).status !== 0)('the curl lines of the shipped docs', () => {
  const work = mkdtempSync(join(tmpdir(), 'service-sim-docs-curl-'))
  let child: ChildProcess | undefined
  let port = 0
  let ids: Ids

  beforeAll(async () => {
    port = await freePort()
    const envFile = join(work, '.env')
    writeFileSync(envFile, '')
    let out = ''
    child = spawn(
      process.execPath,
      [join(root, 'bin', 'service-sim.js'), 'serve', '--port', String(port), '--env-file', envFile],
      { cwd: work, env: { ...process.env, SERVICE_SIM_ADMIN_TOKEN: TOKEN } },
    )
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString()
    })
    child.stderr?.on('data', (d: Buffer) => {
      out += d.toString()
    })
    await waitUntilServing(port, child, () => out)
    const key = /STRIPE_SECRET_KEY=(\S+)/.exec(readFileSync(envFile, 'utf8'))?.[1]
    if (key === undefined) throw new Error(`serve wrote no STRIPE_SECRET_KEY: ${readFileSync(envFile, 'utf8')}`)
    const session = await fetch(`http://127.0.0.1:${port}/v1/checkout/sessions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        mode: 'payment',
        success_url: 'https://shop.test/ok',
        'line_items[0][quantity]': '1',
        'line_items[0][price_data][currency]': 'usd',
        'line_items[0][price_data][unit_amount]': '1000',
        'line_items[0][price_data][product_data][name]': 'T-shirt',
      }),
    })
    const body = (await session.json()) as { id?: string }
    if (session.status !== 200 || body.id === undefined) throw new Error(`no checkout session: ${JSON.stringify(body)}`)
    ids = { checkoutSession: body.id }
  }, 120_000)

  afterAll(() => {
    child?.kill()
    rmSync(work, { recursive: true, force: true })
  })

  it('finds them', () => {
    expect(curls.length).toBeGreaterThanOrEqual(2)
  })

  for (const line of curls) {
    it(`answers 2xx to ${line.doc}:${line.line}`, () => {
      let command = line.text.replaceAll('127.0.0.1:12111', `127.0.0.1:${port}`)
      for (const [elided, real] of Object.entries(ELIDED)) command = command.replaceAll(elided, real(ids))
      expect(command, 'an elided id without a stand-in in ELIDED').not.toMatch(/\.\.\./)
      // The status goes to stderr, so a line that sends its body to a file keeps doing so.
      command = command.replace(/^curl /, `curl -sS -w '%{stderr}%{http_code}' `)
      const r = spawnSync('bash', ['-c', command], {
        cwd: work,
        encoding: 'utf8',
        env: { ...process.env, SERVICE_SIM_ADMIN_TOKEN: TOKEN },
        timeout: 30_000,
      })
      expect(`${r.stderr.trim().slice(-3)} ${r.stdout.slice(0, 300)}`).toMatch(/^2\d\d /)
    })
  }
})
