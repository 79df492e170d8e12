import fc from 'fast-check'
import { createSimulator, type Simulator } from 'service-sim'
import {
  buggyFulfilmentClients,
  buggySubscriptionMirrors,
  checkDunning,
  checkFulfilment,
  checkSubscriptionMirror,
  type FlowProgram,
  flowFaultKinds,
  flowProgram,
  fulfilmentSubject,
  mirrorWorkload,
  referenceDunningClient,
  referenceFulfilmentClient,
  referenceSubscriptionMirror,
  runFlow,
} from 'service-sim/harness'
import Stripe from 'stripe'
import { describe, expect, it } from 'vitest'

const URL_A = 'https://hooks.example.test/twins'

interface Got {
  readonly id: string
  readonly type: string
  readonly data: unknown
}

/** A simulator with one snapshot destination for every type, and what its receiver got. */
async function withReceiver(
  faults: NonNullable<Parameters<typeof createSimulator>[0]>['faults'],
): Promise<{ sim: Simulator; stripe: Stripe; got: Got[] }> {
  const sim = createSimulator({ seed: 3, headerPrefix: 'Stripe', faults })
  const stripe = new Stripe(sim.platform.secretKey.test, {
    httpClient: Stripe.createFetchHttpClient(sim.fetch),
    maxNetworkRetries: 0,
  })
  await stripe.v2.core.eventDestinations.create({
    name: 'hooks',
    type: 'webhook_endpoint',
    event_payload: 'snapshot',
    enabled_events: ['*'],
    webhook_endpoint: { url: URL_A },
  })
  const got: Got[] = []
  sim.receivers.mount(URL_A, async (req) => {
    const e = (await req.json()) as Got
    got.push({ id: e.id, type: e.type, data: e.data })
    return new Response('ok')
  })
  return { sim, stripe, got }
}

describe('a redundant event: a second, distinct event for the same change', () => {
  it('is sent with a new id and the same data when a scheduled redundant_event names its type', async () => {
    const { sim, stripe, got } = await withReceiver({
      schedule: [{ step: 1, fault: 'redundant_event', operation: 'customer.created' }],
    })
    sim.faults.step(1)
    await stripe.customers.create({ email: 'twin@example.com' })
    await sim.settle()
    const created = got.filter((e) => e.type === 'customer.created')
    expect(created).toHaveLength(2)
    expect(created[0]?.id).not.toBe(created[1]?.id)
    expect(created[1]?.data).toEqual(created[0]?.data)
    const twin = sim.trace.entries().find((e) => e.kind === 'delivery.fault' && e.data.kind === 'redundant_event')
    expect(twin?.data).toMatchObject({ event: created[0]?.id, twin: created[1]?.id })
  })

  it("twins the next event when injected at run time (as serve's /__sim/faults/inject does)", async () => {
    const { sim, stripe, got } = await withReceiver(undefined)
    await stripe.customers.create({ email: 'before@example.com' })
    sim.faults.inject({ fault: 'redundant_event', count: 1 })
    await stripe.customers.create({ email: 'after@example.com' })
    await sim.settle()
    const emails = got.map((e) => (e.data as { object: { email: string } }).object.email)
    expect(emails.filter((m) => m === 'before@example.com')).toHaveLength(1)
    expect(emails.filter((m) => m === 'after@example.com')).toHaveLength(2)
    expect(sim.faults.fired()).toEqual({ redundant_event: 1 })
  })

  it('never twins a twin, and leaves other types alone', async () => {
    const { sim, stripe, got } = await withReceiver({
      schedule: [{ step: 1, fault: 'redundant_event', operation: 'customer.', count: 1 }],
    })
    sim.faults.step(1)
    const c = await stripe.customers.create({ email: 'once@example.com' })
    await stripe.customers.update(c.id, { name: 'Ada' })
    await sim.settle()
    expect(got.filter((e) => e.type === 'customer.created')).toHaveLength(2)
    expect(got.filter((e) => e.type === 'customer.updated')).toHaveLength(1)
  })

  it('comes from its rate, each decision in the trace and the same on the same seed', async () => {
    const run = async () => {
      const { sim, stripe, got } = await withReceiver({ policy: { rates: { redundant_event: 0.5 } } })
      for (let i = 0; i < 6; i++) await stripe.customers.create({ email: `c${i}@example.com` })
      await sim.settle()
      return { ids: got.map((e) => e.id), fired: sim.trace.entries().filter((e) => e.kind === 'fault').length }
    }
    const a = await run()
    expect(a.fired).toBeGreaterThan(0)
    expect(a.ids.length).toBe(6 + a.fired)
    expect(await run()).toEqual(a)
  })

  it('refuses a delivery fault aimed at a type prefix no event type starts with, naming the nearest', () => {
    expect(() =>
      createSimulator({ faults: { schedule: [{ step: 1, fault: 'redundant_event', operation: 'invoice.payed' }] } }),
    ).toThrow(
      "createSimulator: option 'faults.schedule.0.operation': no event type starts with 'invoice.payed'; did you mean 'invoice.paid'?",
    )
    expect(() =>
      createSimulator({ faults: { schedule: [{ step: 1, fault: 'duplicate_delivery', operation: 'checkout.sesion' }] } }),
    ).toThrow(/no event type starts with 'checkout\.sesion'/)
    // A prefix of real types is a target, and so are the types the spec names beyond the client's.
    for (const operation of ['charge.created', 'checkout_sessions.completed'])
      expect(() => createSimulator({ faults: { schedule: [{ step: 1, fault: 'redundant_event', operation }] } })).not.toThrow()
    expect(() =>
      createSimulator({ faults: { schedule: [{ step: 1, fault: 'reorder_delivery', operation: 'invoice.payment_' }] } }),
    ).not.toThrow()
  })

  it('refuses a rate above 1 with the option named', () => {
    expect(() => createSimulator({ faults: { policy: { rates: { redundant_event: 2 } } } })).toThrow(
      /faults\.policy\.rates\.redundant_event/,
    )
  })
})

describe('redundant events in the billing flows', () => {
  it('are drawn by default, and a program without one is the program drawn before the kind existed', () => {
    const all = fc.sample(flowProgram(mirrorWorkload()), { numRuns: 300, seed: 5 })
    const without = fc.sample(
      flowProgram(mirrorWorkload({ faultKinds: flowFaultKinds.filter((k) => k !== 'redundant_event') })),
      { numRuns: 300, seed: 5 },
    )
    const twinned = all.filter((p) => p.faults.some((f) => f.fault === 'redundant_event'))
    expect(twinned.length).toBeGreaterThan(30)
    // A request fault's `after` is drawn after the twin (so adding it changed no twin): without the
    // twin's draw it falls on other values; the rest of each program is as drawn before the kind.
    const bare = (faults: FlowProgram['faults']) => faults.map(({ after: _after, ...f }) => f)
    expect(all.map((p) => ({ ...p, faults: bare(p.faults.filter((f) => f.fault !== 'redundant_event')) }))).toEqual(
      without.map((p) => ({ ...p, faults: bare(p.faults) })),
    )
  })

  it('catch a mirror that welcomes once per created event instead of once per subscription', async () => {
    const v = buggySubscriptionMirrors.find((x) => x.name === 'welcome-per-created-event')
    if (v === undefined) throw new Error('no bundled mirror welcome-per-created-event')
    const result = await checkSubscriptionMirror(v.factory, { seed: 1 })
    expect(result.ok).toBe(false)
    expect(result.violations?.[0]?.checker).toBe('mirror.welcome_once')
    expect(result.counterexample?.faults.some((f) => f.fault === 'redundant_event')).toBe(true)
    // The verdict names both events: two created events about one subscription.
    expect(result.violations?.[0]?.message).toMatch(
      /while handling (evt_\w+) \(customer\.subscription\.created.*the first while handling (?!\1)evt_\w+ \(customer\.subscription\.created/,
    )
    // And says what they are: one change told twice, which an effect keyed by the event id repeats.
    expect(result.violations?.[0]?.message).toMatch(/two distinct events for one change \(the provider may send both\)/)
  }, 120_000)

  it('name the two events of one change when a shop ships a paid session once per event', async () => {
    const v = buggyFulfilmentClients.find((x) => x.name === 'event-id-dedupe')
    if (v === undefined) throw new Error('no bundled shop event-id-dedupe')
    const program: FlowProgram = {
      seed: 0,
      steps: [
        { kind: 'x:checkout', mode: 'payment', customer: 0, plan: 0 },
        { kind: 'x:pay', session: -1, payment: 0, returns: false },
      ] as FlowProgram['steps'],
      faults: [{ step: 2, fault: 'redundant_event', operation: 'checkout.session.completed', count: 1 }],
    }
    const run = await runFlow(program, fulfilmentSubject(v.factory, 'test'))
    const once = run.violations.find((x) => x.checker === 'fulfilment.once')
    expect(once?.message).toMatch(/order\.fulfil 2 time\(s\).*two distinct events for one change/)
    // Without the twin, the same program ships once.
    expect((await runFlow({ ...program, faults: [] }, fulfilmentSubject(v.factory, 'test'))).violations).toEqual([])
  }, 60_000)

  it('leave the reference clients correct when redundant events are the only faults drawn', async () => {
    const workload = { faultKinds: ['redundant_event' as const] }
    expect((await checkSubscriptionMirror(referenceSubscriptionMirror, { numRuns: 60, seed: 4, workload })).ok).toBe(true)
    expect((await checkDunning(referenceDunningClient, { numRuns: 40, seed: 4, workload })).ok).toBe(true)
    expect((await checkFulfilment(referenceFulfilmentClient, { numRuns: 60, seed: 4, workload })).ok).toBe(true)
  }, 240_000)
})
