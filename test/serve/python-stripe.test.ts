import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { BIN, ROOT } from '../cli/run-cli.js'
import { PYTHON, pythonStripeMissing } from './python-stripe-probe.js'

const SCRIPT = fileURLToPath(new URL('./stripe_python_client.py', import.meta.url))
const ONE_SECRET_APP = fileURLToPath(new URL('./stripe_python_one_secret_app.py', import.meta.url))
const NO_FLAGS = fileURLToPath(new URL('./stripe_python_no_flags.py', import.meta.url))
const missing = pythonStripeMissing('python-stripe.test.ts')

const freePort = () =>
  new Promise<number>((done, failed) => {
    const s = createServer()
    s.once('error', failed)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => done(port))
    })
  })

const children: ChildProcess[] = []
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGINT')
})

/** Starts the real bin and waits for its banner. */
async function serve(args: string[]): Promise<{ child: ChildProcess; out: string; port: number }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { cwd: ROOT })
  children.push(child)
  let out = ''
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 30_000)
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /127\.0\.0\.1:(\d+)[\s\S]*Press Ctrl-C/.exec(out)
      if (m) {
        clearTimeout(timer)
        resolve(Number(m[1]))
      }
    })
    child.on('exit', () => reject(new Error(out)))
  })
  return { child, out, port }
}

describe.skipIf(missing !== undefined)("Debian's python3-stripe against serve as started (no --header-prefix)", () => {
  it('serve with no flags: stripe_account creates and lists on the connected account, and construct_event verifies a webhook', async () => {
    const { out, port } = await serve([])
    expect(out).toContain('header prefix Stripe')
    const key = /secret key (\S+)/.exec(out)?.[1] ?? ''
    const python = spawnSync(PYTHON, [NO_FLAGS], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, API_BASE: `http://127.0.0.1:${port}`, API_KEY: key },
    })
    expect(python.status, python.stderr).toBe(0)
    const seen = JSON.parse(python.stdout.trim().split('\n').pop() ?? '{}')
    expect(seen.connected_list).toEqual([seen.connected_customer])
    expect(seen.on_platform).toBe(false)
    expect(seen.refused).toEqual([])
    expect(seen.received).toEqual(['customer.created'])
  }, 90_000)

  it('connected accounts, a confirmed payment, idempotent repeats, whole account and balance objects and a verified webhook with no admin call', async () => {
    const receiverPort = await freePort()
    const token = 'python-suite-token'
    // No --header-prefix, no --clock: the official client works against serve as started.
    const { out, port } = await serve([
      '--admin-token',
      token,
      '--forward-to',
      `http://127.0.0.1:${receiverPort}/webhooks`,
      '--events',
      'customer.created',
    ])
    const key = /secret key (\S+)/.exec(out)?.[1] ?? ''
    const secret = /webhook signing secret (whsec_\S+)/.exec(out)?.[1] ?? ''
    expect(secret).toMatch(/^whsec_/)
    const python = spawnSync(PYTHON, [SCRIPT], {
      encoding: 'utf8',
      timeout: 60_000,
      env: {
        ...process.env,
        API_BASE: `http://127.0.0.1:${port}`,
        API_KEY: key,
        ADMIN_TOKEN: token,
        WEBHOOK_SECRET: secret,
        RECEIVER_PORT: String(receiverPort),
      },
    })
    expect(python.status, python.stderr).toBe(0)
    const seen = JSON.parse(python.stdout.trim().split('\n').pop() ?? '{}')
    // Stripe-Account reached the connected account: its customer is not the platform's.
    expect(seen.visible_on_connected).toBe(true)
    expect(seen.visible_on_platform).toBe(false)
    expect(seen.platform_lookup_status).toBe(404)
    expect(seen.idempotent).toEqual({ same: true, replayed: 'true' })
    expect(seen.webhook).toMatchObject({ delivered: true, refused: [] })
    expect(seen.webhook.seconds).toBeLessThan(10)
    // python3-stripe 5.0 sends booleans as True/False, which the service accepts.
    expect(seen.payment_intent).toMatchObject({ status: 'succeeded' })
    expect(seen.payment_intent.http_status).toBeUndefined()
    // The account and balance objects whole: the client reads their nested fields as attributes.
    expect(seen.custom_account).toMatchObject({
      capabilities: { card_payments: 'inactive', transfers: 'inactive' },
      statement_descriptor: null,
      payout_interval: 'daily',
      controller: 'application',
      external_accounts: 'list',
      tos_date: null,
    })
    expect(seen.custom_account.currently_due).toContain('tos_acceptance.date')
    expect(seen.balance).toEqual({
      connect_reserved: [{ amount: 0, currency: 'usd', source_types: { card: 0 } }],
      instant_available: 1,
      issuing: 1,
    })
  }, 90_000)

  it('a one-secret Python app reads its keys and secret from --env-file and verifies every event it subscribed to, once each', async () => {
    const receiverPort = await freePort()
    const envFile = join(mkdtempSync(join(tmpdir(), 'serve-python-')), '.env')
    // Node 20 itself reads an --env-file argument, even after the script, and exits when the file is missing.
    writeFileSync(envFile, '')
    const { port } = await serve([
      '--admin-token',
      'none',
      '--forward-to',
      `http://127.0.0.1:${receiverPort}/webhook`,
      '--env-file',
      envFile,
    ])
    const python = spawnSync(PYTHON, [ONE_SECRET_APP], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, API_BASE: `http://127.0.0.1:${port}`, ENV_FILE: envFile, RECEIVER_PORT: String(receiverPort) },
    })
    expect(python.status, python.stderr).toBe(0)
    const seen = JSON.parse(python.stdout.trim().split('\n').pop() ?? '{}') as {
      expected: string[]
      received: string[]
      refused: string[]
    }
    expect(seen.refused).toEqual([])
    expect(seen.expected.length).toBeGreaterThan(8)
    expect([...seen.received].sort()).toEqual([...seen.expected].sort())
  }, 90_000)
})
