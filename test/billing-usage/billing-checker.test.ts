import { describe, expect, it } from 'vitest'
import { checkBilling } from '../../src/harness/index.js'
import { createTrace } from '../../src/kernel/trace.js'
import type { TraceKinds } from '../../src/kernel/trace-kinds.js'

const JAN = Date.UTC(2026, 0, 1)
const FEB = Date.UTC(2026, 1, 1)
const MAR = Date.UTC(2026, 2, 1)

function history(build: (t: ReturnType<typeof createTrace<TraceKinds>>, at: (ms: number) => void) => void) {
  let now = JAN
  const trace = createTrace<TraceKinds>({ now: () => now })
  build(trace, (ms) => {
    now = ms
  })
  return trace.entries()
}

const usage = (id: string, value: number, from: number, to = from, outcome: 'acked' | 'failed' = 'acked') => ({
  units: [{ id, customer: 'cus_a', value }],
  outcome,
  from,
  to,
})
const line = (start: number, end: number, quantity: number, unitAmount = 3, amount = quantity * unitAmount) => ({
  customer: 'cus_a',
  invoice: `in_${start}`,
  status: 'paid',
  start,
  end,
  quantity,
  amount,
  unitAmount,
})

describe('checkBilling', () => {
  it('accepts usage billed once, in its period, at its price', () => {
    const entries = history((t) => {
      t.append('harness.billing.usage', usage('u1', 5, JAN + 1000))
      t.append('harness.billing.usage', usage('u2', 2, FEB + 1000))
      t.append('harness.billing.usage', usage('u3', 4, FEB + 2000))
      t.append('harness.billing.cancelled', { units: ['u3'] })
      t.append('harness.billing.line', line(JAN, FEB, 5))
      t.append('harness.billing.line', line(FEB, MAR, 2))
    })
    expect(checkBilling(entries)).toEqual([])
  })

  it('names double billing, a wrong period and a wrong amount, with witnesses', () => {
    const entries = history((t) => {
      t.append('harness.billing.usage', usage('u1', 5, JAN + 1000))
      t.append('harness.billing.usage', usage('u2', 2, FEB + 1000))
      t.append('harness.billing.line', line(JAN, FEB, 7))
      t.append('harness.billing.line', line(FEB, MAR, 2, 3, 7))
    })
    const v = checkBilling(entries)
    expect(v.map((x) => x.checker).sort()).toEqual(['billing.amount', 'billing.exactly_once', 'billing.period'])
    const period = v.find((x) => x.checker === 'billing.period')
    expect(period?.message).toContain('billed 7 units')
    expect(period?.witness.length).toBeGreaterThan(1)
  })

  it('counts a cancelled unit nowhere, and lets a unit sent across a boundary fall in either period', () => {
    const ok = history((t) => {
      t.append('harness.billing.usage', usage('u1', 5, FEB - 1000, FEB + 1000))
      t.append('harness.billing.line', line(JAN, FEB, 0))
      t.append('harness.billing.line', line(FEB, MAR, 5))
    })
    expect(checkBilling(ok)).toEqual([])
    const cancelledButBilled = history((t) => {
      t.append('harness.billing.usage', usage('u1', 5, JAN + 1000))
      t.append('harness.billing.cancelled', { units: ['u1'] })
      t.append('harness.billing.line', line(JAN, FEB, 5))
    })
    expect(checkBilling(cancelledButBilled).map((x) => x.checker)).toContain('billing.exactly_once')
  })
})
