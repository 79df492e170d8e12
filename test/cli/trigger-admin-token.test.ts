import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { run } from './in-process.js'
import { type ServedCli, startServeCli } from './serve-cli.js'

/** Runs the CLI in process with `vars` set in the environment (and none of the two variables otherwise). */
async function withEnv(vars: Record<string, string>, args: string[]) {
  const saved = { url: process.env.SERVICE_SIM_URL, token: process.env.SERVICE_SIM_ADMIN_TOKEN }
  delete process.env.SERVICE_SIM_URL
  delete process.env.SERVICE_SIM_ADMIN_TOKEN
  Object.assign(process.env, vars)
  try {
    return await run(args)
  } finally {
    for (const [name, value] of [
      ['SERVICE_SIM_URL', saved.url],
      ['SERVICE_SIM_ADMIN_TOKEN', saved.token],
    ] as const)
      if (value === undefined) delete process.env[name]
      else process.env[name] = value
  }
}

describe('the admin token a user types: serve writes it, trigger reads it', () => {
  let served: ServedCli
  let envFile: string
  beforeAll(async () => {
    envFile = join(mkdtempSync(join(tmpdir(), 'trigger-token-')), '.env')
    // Node 20 reads an --env-file argument itself and exits when the file is missing.
    writeFileSync(envFile, 'PORT=4242\n')
    served = await startServeCli(['--clock', 'manual', '--env-file', envFile], { SERVICE_SIM_ADMIN_TOKEN: '' })
  }, 60_000)
  afterAll(async () => {
    await served.stop()
  })

  it('serve --env-file writes its address and generated admin token beside the keys, keeping the other lines', () => {
    const text = readFileSync(envFile, 'utf8')
    const token = /admin token (\S+) \(send/.exec(served.out())?.[1]
    expect(token).toBeDefined()
    expect(text).toContain('PORT=4242\n')
    expect(text).toContain(`SERVICE_SIM_ADMIN_TOKEN=${token}\n`)
    expect(text).toContain(`SERVICE_SIM_URL=http://127.0.0.1:${served.port}\n`)
    expect(text).toMatch(/^STRIPE_SECRET_KEY=sk_test_/m)
  })

  it('trigger --env-file finds the serve and its token in the file, with no other flag', async () => {
    const r = await withEnv({}, ['trigger', 'customer.created', '--env-file', envFile])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/Trigger succeeded: customer\.created event evt_/)
  })

  it('trigger takes the token from SERVICE_SIM_ADMIN_TOKEN and the address from SERVICE_SIM_URL', async () => {
    const token = /SERVICE_SIM_ADMIN_TOKEN=(\S+)/.exec(readFileSync(envFile, 'utf8'))?.[1] ?? ''
    const r = await withEnv({ SERVICE_SIM_URL: `http://127.0.0.1:${served.port}`, SERVICE_SIM_ADMIN_TOKEN: token }, [
      'trigger',
      'customer.created',
    ])
    expect(r.code, r.stderr).toBe(0)
  })

  it('without a token, trigger names the flag, the variable and the env file to set, not HTTP headers', async () => {
    const r = await withEnv({}, ['trigger', 'customer.created', '--url', `http://127.0.0.1:${served.port}`])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('needs its admin token and no admin token was found')
    expect(r.stderr).toContain('--admin-token T')
    expect(r.stderr).toContain('SERVICE_SIM_ADMIN_TOKEN')
    expect(r.stderr).toContain('--env-file')
    expect(r.stderr).not.toMatch(/Authorization|Bearer|X-Sim-Admin-Token/)
    const wrong = await withEnv({ SERVICE_SIM_ADMIN_TOKEN: 'not-the-token-0123456789' }, [
      'trigger',
      'customer.created',
      '--url',
      `http://127.0.0.1:${served.port}`,
    ])
    expect(wrong.stderr).toContain('the admin token from SERVICE_SIM_ADMIN_TOKEN was refused')
  })

  it('names the type meant when a misspelt one gets a generated event', async () => {
    const r = await withEnv({}, ['trigger', 'customer.craeted', '--env-file', envFile])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain('(generated: no API calls cause this type yet')
    expect(r.stderr).toContain("'customer.craeted' has no recipe; did you mean 'customer.created'?")
  })

  it('refuses an --env-file that does not exist', async () => {
    const r = await withEnv({}, ['trigger', 'customer.created', '--env-file', join(tmpdir(), 'no-such-dir-x', '.env')])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--env-file: no such file')
  })
})
