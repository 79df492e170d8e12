import { describe, expect, it } from 'vitest'
import { operations } from '../../src/catalogue/index.js'
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
        if (code !== 'not_implemented' || !message.includes(op.name)) bad.push(`${op.name}: 501 without its name (${message})`)
      } else {
        counts.served++
        if (status === -1 || status === 405 || status >= 500 || (status === 404 && code === 'url_unrecognized')) {
          bad.push(`${op.name} ${op.method} ${op.path}: ${status} ${code} ${message}`)
        }
      }
    }
    expect(bad).toEqual([])
    expect(counts.served).toBeGreaterThan(150)
    console.log(`catalogue walk: ${counts.served} served, ${counts.notImplemented} not implemented, of ${operations().length}`)
  }, 60_000)
})
