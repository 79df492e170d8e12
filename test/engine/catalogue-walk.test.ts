import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { operations } from '../../src/catalogue/index.js'
import { NOT_SERVED } from '../../src/catalogue/not-served.js'
import { routes } from '../../src/http/routes/index.js'
import { methodOf, setup } from './helpers.js'

/** Calls the client checks before sending: it needs these arguments to make the request at all. */
const SPECIAL: Record<string, unknown[]> = {
  'ephemeralKeys.create': [{ customer: 'cus_x' }, { apiVersion: '2025-01-27.acacia' }],
  'files.create': [{ purpose: 'dispute_evidence', file: { data: Buffer.from('x'), name: 'x.txt', type: 'text/plain' } }],
}

describe('every catalogue operation answers through the official client', () => {
  it('is served or answers 501 naming it; never 404 url_unrecognized, 405 or 500', async () => {
    const { stripe } = setup()
    const bad: string[] = []
    const counts = { served: 0, notImplemented: 0 }
    const answered501: string[] = []
    for (const op of operations()) {
      const fn = methodOf(stripe, op.name)
      if (fn === undefined) {
        bad.push(`${op.name}: no such client method`)
        continue
      }
      const args = op.pathParams.map((p) => `x_${p}`)
      let status = 200
      let code: string | undefined
      let message = ''
      try {
        await fn(...args, ...(SPECIAL[op.name] ?? [{}]))
      } catch (error) {
        const e = error as { statusCode?: number; code?: string; message: string }
        status = e.statusCode ?? -1
        code = e.code
        message = e.message
      }
      if (status === 501) {
        counts.notImplemented++
        answered501.push(op.name)
        if (code !== 'not_implemented' || !message.includes(op.name)) bad.push(`${op.name}: 501 without its name (${message})`)
      } else {
        counts.served++
        if (status === -1 || status === 405 || status >= 500 || (status === 404 && code === 'url_unrecognized')) {
          bad.push(`${op.name} ${op.method} ${op.path}: ${status} ${code} ${message}`)
        }
      }
    }
    expect(bad).toEqual([])
    // The 501s are exactly the documented not-served list: the route table's 501 routes (some are
    // refused before their 501 here, their path naming no object of the caller's), and every 501
    // the walk met is one of them.
    const routed501 = routes.filter((r) => r.checksParams === false).map((r) => r.operation)
    expect(routed501.sort()).toEqual(Object.keys(NOT_SERVED).sort())
    for (const name of answered501) expect(Object.keys(NOT_SERVED)).toContain(name)
    // The docs show the documented list, row for row.
    const doc = readFileSync(new URL('../../docs/catalogue.md', import.meta.url), 'utf8')
    const section = doc.slice(doc.indexOf('## Operations answered 501 on purpose'), doc.indexOf('## Measured on'))
    const rows = [...section.matchAll(/^\| `([\w.]+)` \| (.+) \|$/gm)]
    expect(rows.map(([, name]) => name).sort()).toEqual(Object.keys(NOT_SERVED).sort())
    expect(counts.served).toBeGreaterThan(150)
    console.log(
      `catalogue walk: ${counts.served} answered, ${counts.notImplemented} answered 501, ${routed501.length} routed to 501, of ${operations().length}`,
    )
    // The README states how many operations something serves (the route table: a behaviour or the
    // engine; the walk's count above also holds operations refused before their 501, such as
    // another account's sub-resources); the figures must follow the table.
    const shape = (method: string, path: string) => `${method} ${path.replace(/:\w+/g, ':')}`
    const servedShapes = new Set(routes.filter((r) => r.checksParams !== false).map((r) => shape(r.method, r.path)))
    const served = operations().filter((op) => servedShapes.has(shape(op.method, op.path))).length
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ')
    expect(readme).toContain(`${operations().length} operations) answers: ${served} are served`)
    const left = operations().length - served
    expect(readme).toContain(left === 0 ? 'none answers 501' : `the other ${left} answer 501`)
  }, 60_000)
})
