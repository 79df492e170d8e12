import { parseDuration } from '../harness/scenario/duration.js'
import type { Simulator } from '../simulator/create-simulator.js'

/** The reserved path prefix of the admin API in serve mode. */
export const ADMIN_PREFIX = '/__sim/'

const json = (status: number, body: unknown) =>
  new Response(`${JSON.stringify(body, null, 2)}\n`, { status, headers: { 'Content-Type': 'application/json' } })
const fail = (status: number, message: string) => json(status, { error: { type: 'invalid_request_error', message } })

async function readJson(req: Request): Promise<Record<string, unknown>> {
  const text = await req.text()
  if (text.trim() === '') return {}
  const v: unknown = JSON.parse(text)
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new SyntaxError('expected a JSON object')
  return v as Record<string, unknown>
}

/**
 * The admin API of `service-sim serve`: setup, inspection and time travel over HTTP, so clients in
 * any language can drive the simulation. Everything else goes to `sim.fetch`.
 *
 * @example
 * const handler = withAdminApi(sim)
 * await handler(new Request('http://127.0.0.1/__sim/clock/advance', { method: 'POST', body: '{"duration":"15m"}' }))
 */
export function withAdminApi(sim: Simulator): (req: Request) => Promise<Response> {
  return async (req) => {
    const url = new URL(req.url)
    if (!url.pathname.startsWith(ADMIN_PREFIX)) return sim.fetch(req)
    const route = `${req.method} ${url.pathname.slice(ADMIN_PREFIX.length - 1)}`
    try {
      switch (route) {
        case 'GET /state':
          return json(200, {
            now: new Date(sim.clock.now).toISOString(),
            seed: sim.seed,
            platform: { id: sim.platform.id, secret_key: sim.platform.secretKey, publishable_key: sim.platform.publishableKey },
            accounts: sim.admin.accounts().map((a) => ({
              id: a.id,
              platform: a.platform ?? null,
              organisation: a.organisation ?? null,
              secret_key: a.keys.secret,
            })),
            trace: { length: sim.trace.length, hash: sim.trace.hash() },
          })
        case 'POST /accounts': {
          const b = await readJson(req)
          const a = sim.admin.createAccount({
            ...(typeof b.email === 'string' ? { email: b.email } : {}),
            ...(typeof b.country === 'string' ? { country: b.country } : {}),
          })
          return json(200, { id: a.id, secret_key: a.keys.secret, publishable_key: a.keys.publishable })
        }
        case 'POST /organisations': {
          const b = await readJson(req)
          if (!Array.isArray(b.accounts)) return fail(400, 'expected {"accounts": ["acct_..."]}')
          const org = sim.admin.createOrganisation({
            accounts: b.accounts.map(String),
            ...(typeof b.name === 'string' ? { name: b.name } : {}),
          })
          return json(200, { id: org.id, accounts: [...org.accounts] })
        }
        case 'POST /clock/advance': {
          const b = await readJson(req)
          const raw = b.ms ?? b.duration
          const ms = typeof raw === 'number' || typeof raw === 'string' ? parseDuration(raw) : undefined
          if (ms === undefined) return fail(400, 'expected {"ms": <number>} or {"duration": "15m"}')
          await sim.clock.tickAsync(ms)
          await sim.settle()
          return json(200, { now: new Date(sim.clock.now).toISOString() })
        }
        case 'POST /settle':
          await sim.settle()
          return json(200, { now: new Date(sim.clock.now).toISOString() })
        case 'GET /events':
          return json(200, {
            data: sim.admin.events().map((e) => ({ id: e.id, type: e.type, account: e.account, mode: e.mode, kind: e.kind })),
          })
        case 'GET /trace': {
          const since = Number(url.searchParams.get('since') ?? 0)
          const lines = sim.trace
            .entries()
            .filter((e) => e.seq >= since)
            .map((e) => `${JSON.stringify(e)}\n`)
            .join('')
          return new Response(lines, { headers: { 'Content-Type': 'application/x-ndjson' } })
        }
        default:
          return fail(404, `no admin route ${route}; see 'service-sim serve --help'`)
      }
    } catch (error) {
      return fail(400, error instanceof Error ? error.message : String(error))
    }
  }
}
