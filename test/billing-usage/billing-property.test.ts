import { describe, expect, it } from 'vitest'
import { buggyUsageReporters, checkUsageBilling, referenceUsageReporter } from '../../src/harness/index.js'

describe('checkUsageBilling', () => {
  it('the reference reporter: every acknowledged unit billed once, in its period, at its price (2 months, realistic faults)', async () => {
    const result = await checkUsageBilling(referenceUsageReporter, { months: 2, customers: 3 })
    expect(result.violations).toEqual([])
    expect(result.lines).toBeGreaterThanOrEqual(6)
    expect(result.acked).toBeGreaterThan(0)
  }, 60_000)

  it('a reporter without identifiers is caught double billing, with witnesses', async () => {
    const variant = buggyUsageReporters.find((v) => v.name === 'no-identifiers')
    expect(variant).toBeDefined()
    const result = await checkUsageBilling(variant?.factory as never, {
      months: 1,
      faults: { policy: { rates: { indeterminate: 0.3 } } },
    })
    expect(result.ok).toBe(false)
    const v = result.violations.find((x) => x.checker === 'billing.exactly_once' || x.checker === 'billing.period')
    expect(v?.witness.length).toBeGreaterThan(0)
  }, 60_000)
})
