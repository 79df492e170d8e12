import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { requestLog } from '../../src/cli/admin/request-log.js'

const root = join(import.meta.dirname, '..', '..')

describe("the dashboard's page code", () => {
  it('is served from a bundle generated from its sources as they are now', () => {
    // Exits 1 naming the command to run when the committed bundle is stale.
    expect(() =>
      execFileSync(process.execPath, [join(root, 'scripts', 'bundle-dashboard.mjs'), '--check'], { cwd: root, stdio: 'pipe' }),
    ).not.toThrow()
  })
})

describe("the Requests page's log", () => {
  const line = (seq: number, kind: string, data: Record<string, unknown>) => ({ seq, at: 1000 + seq, kind, data })
  const arrived = (seq: number, method: string, path: string, body: string, headers: Record<string, string>) =>
    line(seq, 'serve.request', { wall: `wall-${seq}`, method, path, admin: false, headers, body })
  const answered = (seq: number, method: string, path: string, request: string, status: number) =>
    line(seq, 'http', { method, path, operation: 'op', account: 'acct_1', mode: 'test', status, request, response: '{}' })

  it('joins each answer with its arrival by method, target and body, even when answers finish out of order', () => {
    const log = requestLog()
    log.add([
      line(0, 'simulator.created', { seed: '1', start: 0, prefix: 'Acme' }),
      line(1, 'account.version', { id: 'acct_1', version: '2026-01-01.base' }),
      arrived(2, 'POST', '/v1/customers', 'email=a', { 'idempotency-key': 'first', 'acme-version': '2025-06-01.pinned' }),
      arrived(3, 'POST', '/v1/customers', 'email=b', { 'idempotency-key': 'second' }),
      answered(4, 'POST', '/v1/customers', 'email=b', 200),
      answered(5, 'POST', '/v1/customers', 'email=a', 402),
    ])
    expect(log.rows.map((r) => [r.idempotencyKey, r.status, r.version, r.wall, r.at])).toEqual([
      ['second', 200, '2026-01-01.base (account default)', 'wall-3', 1003],
      ['first', 402, '2025-06-01.pinned', 'wall-2', 1002],
    ])
  })

  it('reads each entry once, however often the same lines are added', () => {
    const log = requestLog()
    const lines = [arrived(0, 'GET', '/v1/balance', '', {}), answered(1, 'GET', '/v1/balance', '', 200)]
    log.add(lines)
    log.add(lines)
    expect(log.rows).toHaveLength(1)
    expect(log.next).toBe(2)
  })

  it('lists a request made inside the simulator (no arrival over HTTP) without headers or wall time', () => {
    const log = requestLog()
    log.add([answered(0, 'POST', '/v1/payment_intents', 'amount=100', 200)])
    expect(log.rows[0]).toMatchObject({ path: '/v1/payment_intents', wall: undefined, idempotencyKey: undefined })
  })
})
