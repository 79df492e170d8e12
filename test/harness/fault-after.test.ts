import { createSimulator, type Simulator } from 'service-sim'
import { type FlowProgram, mirrorSubject, parseScenarioText, referenceSubscriptionMirror, runFlow } from 'service-sim/harness'
import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'

const client = (sim: Simulator) =>
  new Stripe(sim.platform.secretKey.test, { httpClient: Stripe.createFetchHttpClient(sim.fetch), maxNetworkRetries: 0 })

/** What each of `n` calls met: 'ok', or the error's HTTP status and code. */
async function outcomes(n: number, call: () => Promise<unknown>): Promise<string[]> {
  const out: string[] = []
  for (let i = 0; i < n; i++) {
    try {
      await call()
      out.push('ok')
    } catch (error) {
      const e = error as { statusCode?: number; code?: string; type?: string }
      out.push(`${e.statusCode ?? e.type} ${e.code ?? ''}`.trim())
    }
  }
  return out
}

describe("a request fault's after", () => {
  it('lets the first matching requests through and fails the next ones', async () => {
    const sim = createSimulator({ seed: 1 })
    const stripe = client(sim)
    const customer = await stripe.customers.create({ email: 'a@example.com' })
    sim.admin.injectFault({ fault: 'server_error', operation: 'customers.', after: 2, count: 2 })
    const met = await outcomes(5, () => stripe.customers.retrieve(customer.id))
    expect(met).toEqual(['ok', 'ok', '500 server_error', '500 server_error', 'ok'])
  })

  it('counts only the requests its operation matches', async () => {
    const sim = createSimulator({ seed: 1 })
    const stripe = client(sim)
    const customer = await stripe.customers.create({ email: 'a@example.com' })
    sim.admin.injectFault({ fault: 'rate_limit', operation: 'customers.update', after: 1 })
    await stripe.customers.retrieve(customer.id)
    await stripe.customers.retrieve(customer.id)
    const met = await outcomes(3, () => stripe.customers.update(customer.id, { metadata: { n: '1' } }))
    expect(met).toEqual(['ok', '429 rate_limit', 'ok'])
  })

  it('counts a request another fault refused first', async () => {
    const sim = createSimulator({ seed: 1 })
    const stripe = client(sim)
    const customer = await stripe.customers.create({ email: 'a@example.com' })
    // The lock timeout refuses the first read; the server error still counts it among the two it lets through.
    sim.admin.injectFault({ fault: 'lock_timeout', operation: 'customers.retrieve' })
    sim.admin.injectFault({ fault: 'server_error', operation: 'customers.retrieve', after: 2 })
    const met = await outcomes(4, () => stripe.customers.retrieve(customer.id))
    expect(met).toEqual(['429 lock_timeout', 'ok', '500 server_error', 'ok'])
  })

  it('fires on the next request with after 0, as without it', async () => {
    const sim = createSimulator({ seed: 1 })
    const stripe = client(sim)
    sim.admin.injectFault({ fault: 'concurrent_conflict', after: 0 })
    expect(await outcomes(2, () => stripe.customers.create({ email: 'a@example.com' }))).toEqual([
      '409 too_many_concurrent_requests',
      'ok',
    ])
  })

  it('drops the answer of the matching request after the ones it let through (indeterminate)', async () => {
    const sim = createSimulator({ seed: 1 })
    const stripe = client(sim)
    sim.admin.injectFault({ fault: 'indeterminate', operation: 'customers.create', after: 1 })
    const met = await outcomes(3, () => stripe.customers.create({ email: 'a@example.com' }))
    expect(met).toEqual(['ok', 'StripeConnectionError', 'ok'])
    // The dropped request was committed: three customers made.
    expect((await stripe.customers.list()).data).toHaveLength(3)
  })

  it('is counted from the step its schedule entry comes before', async () => {
    const sim = createSimulator({
      seed: 1,
      faults: { schedule: [{ step: 2, fault: 'server_error', operation: 'customers.create', after: 1 }] },
    })
    const stripe = client(sim)
    sim.faults.step(1)
    expect(await outcomes(2, () => stripe.customers.create({}))).toEqual(['ok', 'ok'])
    sim.faults.step(2)
    expect(await outcomes(3, () => stripe.customers.create({}))).toEqual(['ok', '500 server_error', 'ok'])
  })
})

describe("a fault's after refused", () => {
  const cases: [unknown, RegExp][] = [
    [-1, /must be 0 or more/],
    [1.5, /must be a whole number of matching requests to let through/],
    [1e12, /must be at most 1000000/],
    [Number.POSITIVE_INFINITY, /must be a whole number|must be at most/],
    ['2', /must be a whole number of matching requests to let through/],
  ]

  it.each(cases)('in the faults option: %s', (after, message) => {
    expect(() =>
      createSimulator({ seed: 1, faults: { schedule: [{ step: 1, fault: 'server_error', after: after as number }] } }),
    ).toThrow(/^createSimulator: option 'faults\.schedule\.0\.after'/)
    expect(() =>
      createSimulator({ seed: 1, faults: { schedule: [{ step: 1, fault: 'server_error', after: after as number }] } }),
    ).toThrow(message)
  })

  it.each(cases)('by sim.admin.injectFault: %s', (after) => {
    const sim = createSimulator({ seed: 1 })
    expect(() => sim.admin.injectFault({ fault: 'rate_limit', after: after as number })).toThrow(
      /^admin\.injectFault: option 'after': must be a whole number of matching requests to let through, 0\.\.1000000, got/,
    )
  })

  it('on a kind that has no requests to let through, naming the kinds that do', () => {
    const sim = createSimulator({ seed: 1 })
    expect(() => sim.admin.injectFault({ fault: 'duplicate_delivery', after: 1 })).toThrow(
      "admin.injectFault: option 'after': applies to request faults only (rate_limit, lock_timeout, concurrent_conflict, server_error, indeterminate), not 'duplicate_delivery'",
    )
    expect(() => createSimulator({ seed: 1, faults: { schedule: [{ step: 1, fault: 'receiver_down', after: 1 }] } })).toThrow(
      "createSimulator: option 'faults.schedule.0.after': applies to request faults only",
    )
    expect(() => createSimulator({ seed: 1, faults: { policy: { params: { session_expiry: { after: 1 } } } } })).toThrow(
      "option 'faults.policy.params.session_expiry.after': applies to request faults only",
    )
  })

  it.each(cases)('in a scenario file, naming its line: %s', (after, message) => {
    const text = `name: s\nworkload:\n  - advance: 1000\nfaults:\n  schedule:\n    - { step: 1, fault: server_error, after: ${JSON.stringify(after)} }\n`
    expect(() => parseScenarioText(text, 's.yaml')).toThrow(/^s\.yaml:6: faults\.schedule\[0\]\.after: /)
    expect(() => parseScenarioText(text, 's.yaml')).toThrow(message)
  })

  it('in a flow program given by hand, naming the entry', async () => {
    const program = {
      seed: 1,
      steps: [{ kind: 'subscribe', customer: 0, plan: 0, quantity: 1, trialDays: 0 }],
      faults: [{ step: 1, fault: 'server_error', after: -3 }],
    } as unknown as FlowProgram
    await expect(runFlow(program, mirrorSubject(referenceSubscriptionMirror, {}, 'test'))).rejects.toThrow(
      /^runFlow: fault 0 field 'after'.*must be 0 or more/,
    )
  })
})
