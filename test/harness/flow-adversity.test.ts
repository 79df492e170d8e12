import { join } from 'node:path'
import { verifySignature } from 'service-sim'
import {
  checkDunning,
  checkDunningTrace,
  checkFlowAdversity,
  checkFulfilment,
  checkRuleTrace,
  checkSubscriptionMirror,
  coverageTable,
  type DunningClientFactory,
  describeFlowProgram,
  dunningSubject,
  dunningWorkload,
  type FlowClientEnv,
  type FlowProgram,
  type FulfilmentClientFactory,
  fulfilmentSubject,
  fulfilmentWorkload,
  HarnessInputError,
  impossibleCombination,
  knownFlowCombinations,
  loadScenarioFile,
  makeDunningClient,
  makeSubscriptionMirror,
  minimiseFlow,
  mirrorSubject,
  mountApp,
  referenceDunningClient,
  referenceFulfilmentClient,
  referenceSubscriptionMirror,
  runFlow,
  runFlowCampaign,
  runScenario,
  type SubscriptionMirrorFactory,
} from 'service-sim/harness'
import { describe, expect, it } from 'vitest'

const DAY = 86_400_000
const program = (steps: unknown[], faults: unknown[] = []): FlowProgram => ({ seed: 7, steps, faults }) as FlowProgram
const checkers = (violations: readonly { checker: string }[]) => [...new Set(violations.map((v) => v.checker))]

/**
 * A mirror as many apps verify: the newest secret read from the environment at start-up, and only
 * the header's first `v1` compared. Right until a roll: then the header carries the new secret's
 * signature first while the app still holds the old one.
 */
const firstV1Only: SubscriptionMirrorFactory = (env) => {
  const inner = referenceSubscriptionMirror(env)
  const secret = env.secrets()[env.secrets().length - 1] as string
  return {
    ...inner,
    async handler(req) {
      const raw = await req.clone().text()
      const header = req.headers.get(`${env.prefix}-Signature`) ?? ''
      const t = /t=(\d+)/.exec(header)?.[1] ?? '0'
      const first = /v1=([0-9a-f]+)/.exec(header)?.[1]
      try {
        verifySignature(raw, `t=${t},v1=${first}`, [secret], { now: env.clock.now })
      } catch {
        return new Response('bad signature', { status: 400 })
      }
      return inner.handler(req)
    },
  }
}

describe('a redeploy at a drawn delay after a secret roll', () => {
  const rolled = program([
    { kind: 'subscribe', customer: 0, plan: 0, quantity: 1, trialDays: 0 },
    { kind: 'roll_secret', redeployAfterMs: 3_600_000 },
    { kind: 'subscribe', customer: 1, plan: 1, quantity: 2, trialDays: 0 },
    { kind: 'advance', ms: 2 * 3_600_000 },
    { kind: 'change_quantity', sub: 0, quantity: 3 },
  ])

  it('catches an app that checks only the first v1 while it holds the old secret inside the overlap', async () => {
    const report = await runFlow(rolled, mirrorSubject(firstV1Only, {}, 'test'))
    expect(checkers(report.violations)).toContain('flow.genuine_refused')
    expect(report.coverage.some((k) => k.endsWith('|in_roll'))).toBe(true)
  })

  it('passes the reference mirror, which checks every v1 against every secret it holds', async () => {
    const report = await runFlow(rolled, mirrorSubject(referenceSubscriptionMirror, {}, 'test'))
    expect(report.violations).toEqual([])
  })

  it('passes the first-v1 app when no roll happens (the window is what catches it)', async () => {
    const plain = program([
      { kind: 'subscribe', customer: 0, plan: 0, quantity: 1, trialDays: 0 },
      { kind: 'subscribe', customer: 1, plan: 1, quantity: 2, trialDays: 0 },
    ])
    expect((await runFlow(plain, mirrorSubject(firstV1Only, {}, 'test'))).violations).toEqual([])
  })
})

describe('a genuine delivery refused with a 4xx names what the app most likely did', () => {
  const subscribed = program([{ kind: 'subscribe', customer: 0, plan: 0, quantity: 1, trialDays: 0 }])
  const hint = (violations: readonly { checker: string; message: string }[]) =>
    violations.find((v) => v.checker === 'flow.genuine_refused')?.message ?? ''

  it('says the route is missing when every delivery is answered 404', async () => {
    const elsewhere = mountApp((env: FlowClientEnv) => {
      const inner = referenceSubscriptionMirror(env)
      const app = (req: Request) =>
        new URL(req.url).pathname === '/stripe/hooks' ? inner.handler(req) : new Response('Not Found', { status: 404 })
      return { app, subscriptions: () => inner.subscriptions(), hasAccess: (c: string) => inner.hasAccess(c) }
    })
    const report = await runFlow(subscribed, mirrorSubject(elsewhere, {}, 'test'))
    expect(hint(report.violations)).toMatch(/refused with 404 .*no route where deliveries are posted.*webhookPath/)
  })

  it('says to answer 2xx to unhandled types when the app accepted other genuine deliveries', async () => {
    const picky: SubscriptionMirrorFactory = (env) => {
      const inner = referenceSubscriptionMirror(env)
      return {
        ...inner,
        async handler(req) {
          const { type } = JSON.parse(await req.clone().text()) as { type: string }
          return type.startsWith('customer.subscription.')
            ? inner.handler(req)
            : new Response('Unhandled event type', { status: 400 })
        },
      }
    }
    const report = await runFlow(subscribed, mirrorSubject(picky, {}, 'test'))
    const message = hint(report.violations)
    expect(message).toMatch(/accepted genuine deliveries of other types \(customer\.subscription\./)
    expect(message).toMatch(/refused .*invoice\.paid.*: answer 2xx to every genuine event/)
  })

  it('names the signature header when an app reading Stripe-Signature runs without the Stripe prefix', async () => {
    const readsStripeHeader: SubscriptionMirrorFactory = (env) => {
      const inner = referenceSubscriptionMirror(env)
      return {
        ...inner,
        handler: async (req) =>
          req.headers.has('stripe-signature') ? inner.handler(req) : new Response('no signature', { status: 400 }),
      }
    }
    const report = await runFlow(subscribed, mirrorSubject(readsStripeHeader, {}, 'test'))
    expect(hint(report.violations)).toMatch(
      /`Service-Signature` header, so an app reading Stripe-Signature needs .*headerPrefix: 'Stripe'/,
    )
  })

  it('points at the signature check when no genuine delivery was accepted', async () => {
    const refusesAll: SubscriptionMirrorFactory = (env) => ({
      ...referenceSubscriptionMirror(env),
      handler: async () => new Response('bad signature', { status: 400 }),
    })
    const report = await runFlow(subscribed, mirrorSubject(refusesAll, {}, 'test'))
    expect(hint(report.violations)).toMatch(/refused with 400 .*verify the header's every v1 signature/)
  })
})

describe('a mirror that acknowledges an event without applying it', () => {
  // Idempotency keyed by event type and object: the second update of a subscription is taken for a duplicate.
  const typeObjectDedupe: SubscriptionMirrorFactory = (env) => {
    const inner = referenceSubscriptionMirror(env)
    return {
      ...inner,
      async handler(req) {
        const event = JSON.parse(await req.clone().text()) as { type: string; data: { object: { id: string } } }
        const key = `seen:${event.type}:${event.data.object.id}`
        if (await env.store.has(key)) return new Response('duplicate')
        const res = await inner.handler(req)
        if (res.ok) await env.store.set(key, true)
        return res
      },
    }
  }

  it("names the acknowledged event that showed the provider's state, not a stale payload", async () => {
    const report = await runFlow(
      program([
        { kind: 'subscribe', customer: 0, plan: 0, quantity: 1, trialDays: 0 },
        { kind: 'cancel', sub: 0, atPeriodEnd: true },
        { kind: 'cancel', sub: 0, atPeriodEnd: false },
      ]),
      mirrorSubject(typeObjectDedupe, {}, 'test'),
    )
    expect(report.violations[0]?.message).toMatch(
      /^sub_\w+ mirrored with cancelAtPeriodEnd \w+ \(provider: \w+\), though the app acknowledged evt_\w+ \(customer\.subscription\.updated\), which showed the provider's cancel_at_period_end: an event answered 2xx without being applied/,
    )
  })
})

describe('a signature tolerance tighter than the network', () => {
  // Verifies with a one-second tolerance: a delivery slowed on its way arrives older than that.
  const oneSecond: SubscriptionMirrorFactory = (env) => {
    const inner = referenceSubscriptionMirror(env)
    return {
      ...inner,
      async handler(req) {
        try {
          verifySignature(await req.clone().text(), req.headers.get(`${env.prefix}-Signature`), env.secrets(), {
            now: env.clock.now,
            tolerance: 1,
          })
        } catch {
          return new Response('too old', { status: 400 })
        }
        return inner.handler(req)
      },
    }
  }

  it('says the refused deliveries arrived late, not that the signature check is wrong', async () => {
    const report = await runFlow(
      program(
        [
          { kind: 'subscribe', customer: 0, plan: 0, quantity: 1, trialDays: 0 },
          { kind: 'change_quantity', sub: 0, quantity: 2 },
        ],
        [{ step: 1, fault: 'receiver_slow', count: 1, delay: 2000 }],
      ),
      mirrorSubject(oneSecond, {}, 'test'),
    )
    expect(report.violations.map((v) => v.checker)).toContain('flow.genuine_refused')
    expect(report.violations.find((v) => v.checker === 'flow.genuine_refused')?.message).toMatch(
      /every refused attempt reached the app 2000 ms or more after it was signed .*a signature tolerance shorter than that refuses genuine deliveries/,
    )
  })
})

describe("a delayed payment's outcome delivered hours after the checkout", () => {
  // Drops checkout events about a session made over an hour ago, taking them for stale.
  const ageCheck: FulfilmentClientFactory = (env) => {
    const inner = referenceFulfilmentClient(env)
    return {
      ...inner,
      async handler(req) {
        const raw = await req.clone().text()
        try {
          verifySignature(raw, req.headers.get(`${env.prefix}-Signature`), env.secrets(), { now: env.clock.now })
        } catch {
          return new Response('bad signature', { status: 400 })
        }
        const event = JSON.parse(raw) as { type: string; data: { object: { created?: number } } }
        const created = event.data.object.created ?? 0
        if (event.type.startsWith('checkout.session.') && env.clock.now / 1000 - created > 3600) return new Response('stale')
        return inner.handler(req)
      },
    }
  }

  it('is drawn by the fulfilment flows: an age check on the session is caught (seed 4 at the default runs)', async () => {
    const result = await checkFulfilment(ageCheck, { seed: 4 })
    expect(result.violations?.[0]?.checker).toBe('fulfilment.once')
    expect(result.counterexample?.steps.length).toBeLessThanOrEqual(3)
  }, 120_000)
})

describe('a late invoice.paid after the subscription was canceled', () => {
  // Takes a paid invoice for an active subscription: the row of the invoice's subscription set active.
  const paidMeansActive: SubscriptionMirrorFactory = (env) => {
    const inner = referenceSubscriptionMirror(env)
    const overrides = new Map<string, string>()
    return {
      async handler(req) {
        const event = JSON.parse(await req.clone().text()) as { type: string; data: { object: Record<string, unknown> } }
        const res = await inner.handler(req)
        const o = event.data.object
        const parent = o.parent as { subscription_details?: { subscription?: string } } | undefined
        const sub = parent?.subscription_details?.subscription ?? (o.subscription as string | undefined)
        if (res.ok && event.type === 'invoice.paid' && sub) overrides.set(sub, 'active')
        if (res.ok && event.type.startsWith('customer.subscription.')) overrides.delete(String(o.id))
        return res
      },
      async subscriptions() {
        const table = { ...(await inner.subscriptions()) }
        for (const [id, status] of overrides) if (table[id]) table[id] = { ...table[id], status }
        return table
      },
      hasAccess: (customer) => inner.hasAccess(customer),
    }
  }

  it('is drawn by the mirror flows (seed 2 at the default runs), the verdict naming the invoice event', async () => {
    const result = await checkSubscriptionMirror(paidMeansActive, { seed: 2 })
    expect(result.violations?.[0]?.checker).toBe('mirror.converged')
    expect(result.violations?.[0]?.message).toMatch(
      /^sub_\w+ mirrored with status "active" \(provider: "canceled"\), though the app acknowledged evt_\w+ \(customer\.subscription\.deleted\), which showed the provider's status, and after it evt_\w+ \(invoice\.paid\)/,
    )
    expect(result.counterexample?.steps.length).toBeLessThanOrEqual(3)
  }, 120_000)
})

/** A shop whose success page and webhook each check, then await, then record: both can fulfil. */
const checkThenSet: FulfilmentClientFactory = (env) => {
  const fulfilOnce = async (id: string, source: string) => {
    if (await env.store.has(`done:${id}`)) return
    await env.store.get(`order:${id}`)
    env.orders.fulfil(id, source)
    await env.store.set(`done:${id}`, true)
  }
  return {
    async handler(req) {
      const raw = await req.text()
      try {
        verifySignature(raw, req.headers.get(`${env.prefix}-Signature`), env.secrets(), { now: env.clock.now })
      } catch {
        return new Response('bad signature', { status: 400 })
      }
      const event = JSON.parse(raw) as { id: string; type: string; data: { object: { id: string; payment_status: string } } }
      if (event.type === 'checkout.session.completed' && event.data.object.payment_status === 'paid')
        await fulfilOnce(event.data.object.id, event.id)
      return new Response('ok')
    },
    async successPage(url) {
      const id = new URL(url).searchParams.get('session_id') as string
      const res = await env.fetch(`${env.baseUrl}/v1/checkout/sessions/${id}`, {
        headers: { Authorization: `Bearer ${env.secretKey}` },
      })
      const session = (await res.json()) as { payment_status?: string }
      if (session.payment_status === 'paid') await fulfilOnce(id, 'success_page')
      return new Response('thanks')
    },
  }
}

describe('the success page racing the webhook', () => {
  const race = (returns: string) =>
    program([
      { kind: 'x:checkout', mode: 'payment', customer: 0, plan: 0 },
      { kind: 'x:pay', session: 0, payment: 0, returns },
    ])

  for (const order of ['page_first', 'webhook_first']) {
    it(`opens the page the moment the webhook arrives (${order.replace('_', ' ')}) and catches a check-then-set shop`, async () => {
      const report = await runFlow(race(order), fulfilmentSubject(checkThenSet, 'test'))
      expect(report.steps[1]).toContain(order.replace('_', ' '))
      expect(checkers(report.violations)).toContain('fulfilment.once')
    })

    it(`passes the reference shop, which claims each session atomically (${order.replace('_', ' ')})`, async () => {
      const report = await runFlow(race(order), fulfilmentSubject(referenceFulfilmentClient, 'test'))
      expect(report.steps[1]).toContain(order.replace('_', ' '))
      expect(report.violations).toEqual([])
    })
  }

  // The same check-then-set, guarded by a lock in the instance's memory: safe in one process only.
  const lockedInMemory: FulfilmentClientFactory = (env) => {
    const inner = checkThenSet(env)
    const held = new Set<string>()
    const locked = async (id: string, run: () => Promise<Response>) => {
      if (held.has(id)) return new Response('busy')
      held.add(id)
      try {
        return await run()
      } finally {
        held.delete(id)
      }
    }
    return {
      async handler(req) {
        const body = JSON.parse(await req.clone().text()) as { data?: { object?: { id?: string } } }
        return locked(String(body.data?.object?.id), () => inner.handler(req) as Promise<Response>)
      },
      successPage: (url) =>
        locked(new URL(url).searchParams.get('session_id') as string, () => inner.successPage(url) as Promise<Response>),
    }
  }

  for (const order of ['page_first', 'webhook_first']) {
    it(`serves the racing page from a second instance: a lock in memory does not stop a double fulfilment (${order.replace('_', ' ')})`, async () => {
      const report = await runFlow(race(order), fulfilmentSubject(lockedInMemory, 'test'))
      expect(checkers(report.violations)).toContain('fulfilment.once')
    })
  }

  it('does not catch the check-then-set shop when the page opens before any delivery', async () => {
    const report = await runFlow(race(true as never), fulfilmentSubject(checkThenSet, 'test'))
    expect(report.violations).toEqual([])
  })
})

/** A dunning app that tells the customer before it verifies the delivery (and refuses it after). */
const noticeBeforeVerify: DunningClientFactory = (env) => {
  const inner = referenceDunningClient(env)
  return {
    async handler(req) {
      const event = JSON.parse(await req.clone().text()) as {
        id: string
        type: string
        data: { object: Record<string, unknown> }
      }
      if (event.type === 'invoice.payment_failed')
        env.notices.paymentFailed(String(event.data.object.id), String(event.data.object.customer), event.id)
      return inner.handler(req)
    },
  }
}

describe('forged and tampered deliveries in the flows', () => {
  const paid = (forgery: string) =>
    program([
      { kind: 'subscribe', customer: 0, plan: 0, quantity: 1, trialDays: 0 },
      { kind: 'forge', forgery, aim: 'invoice.paid' },
    ])

  for (const forgery of ['wrong_secret', 'altered_body', 'unsigned']) {
    it(`catches an app that acts before verifying a forged delivery (${forgery})`, async () => {
      const report = await runFlow(paid(forgery), dunningSubject(noticeBeforeVerify, 'test'))
      expect(report.steps[1]).toContain('invoice.payment_failed')
      expect(checkers(report.violations)).toContain('flow.forgery_ignored')
    })
  }

  it('passes the reference dunning client, which refuses every forgery before acting', async () => {
    const report = await runFlow(paid('altered_body'), dunningSubject(referenceDunningClient, 'test'))
    expect(report.steps[1]).toContain('refused (400)')
    expect(report.violations).toEqual([])
  })

  it('catches a shop that fulfils before verifying a forged completion of an expired session', async () => {
    const eager: FulfilmentClientFactory = (env) => {
      const inner = referenceFulfilmentClient(env)
      return {
        ...inner,
        async handler(req) {
          const event = JSON.parse(await req.clone().text()) as { id: string; type: string; data: { object: { id: string } } }
          if (event.type === 'checkout.session.completed') env.orders.fulfil(event.data.object.id, event.id)
          return inner.handler(req)
        },
      }
    }
    const forged = program([
      { kind: 'x:checkout', mode: 'payment', customer: 0, plan: 0 },
      { kind: 'x:expire', session: 0 },
      { kind: 'forge', forgery: 'wrong_secret', aim: 'checkout.session' },
    ])
    const report = await runFlow(forged, fulfilmentSubject(eager, 'test'))
    expect(checkers(report.violations)).toContain('flow.forgery_ignored')
    expect((await runFlow(forged, fulfilmentSubject(referenceFulfilmentClient, 'test'))).violations).toEqual([])
  })

  it('blames a mirror that writes a forged cancellation before verifying for the forgery, not for a dropped event', async () => {
    const forged = program([
      { kind: 'subscribe', customer: 0, plan: 0, quantity: 1, trialDays: 0 },
      { kind: 'forge', forgery: 'wrong_secret', aim: 'invoice.payment_failed' },
    ])
    const early = makeSubscriptionMirror({ writesBeforeVerifying: true })
    const report = await runFlow(forged, mirrorSubject(early, {}, 'test'))
    expect(report.violations[0]?.checker).toBe('flow.forgery_ignored')
    const converged = report.violations.find((v) => v.checker === 'mirror.converged')
    expect(converged?.message).toMatch(/as a forged delivery of evt_forged1 \(wrong_secret: customer\.subscription\.deleted/)
    expect(converged?.message).not.toMatch(/idempotency key|ordering check/)
  })
})

describe('duplicates and redeliveries aimed at the events the rules depend on', () => {
  const failing = [
    { kind: 'subscribe', customer: 0, plan: 0, quantity: 1, trialDays: 0 },
    { kind: 'fail_card', customer: 0 },
    { kind: 'advance', ms: 32 * DAY },
  ]

  it('duplicates the aimed invoice.payment_failed and catches the no-dedup client on it', async () => {
    const aimed = program(failing, [{ step: 3, fault: 'duplicate_delivery', count: 1, operation: 'invoice.payment_failed' }])
    const report = await runFlow(aimed, dunningSubject(referenceDunningClient, 'test'))
    expect(report.violations).toEqual([])
    expect(report.coverage.some((k) => k.startsWith('invoice.payment_failed|') && k.includes('|duplicate|'))).toBe(true)
    const noDedup = await runFlow(aimed, dunningSubject(makeDunningClient({ noDedup: true }), 'test'))
    expect(checkers(noDedup.violations)).toContain('dunning.notice_once')
  })

  it('redelivers the failure after a redeploy: a client remembering in memory only notices twice', async () => {
    const again = program([...failing, { kind: 'redeploy' }, { kind: 'redeliver', aim: 'invoice.payment_failed' }])
    const memory = await runFlow(again, dunningSubject(makeDunningClient({ memoryOnly: true }), 'test'))
    expect(checkers(memory.violations)).toContain('dunning.notice_once')
    const stored = await runFlow(again, dunningSubject(referenceDunningClient, 'test'))
    expect(stored.violations).toEqual([])
    expect(stored.coverage.some((k) => k.startsWith('invoice.payment_failed|') && k.endsWith('|redeployed'))).toBe(true)
  })

  it('delivers a failure notice after the invoice was paid, and the reference sends none', async () => {
    const late = program([...failing, { kind: 'recover', customer: 0 }, { kind: 'redeliver', aim: 'invoice.payment_failed' }])
    const report = await runFlow(late, dunningSubject(referenceDunningClient, 'test'))
    expect(report.coverage.some((k) => k.startsWith('invoice.payment_failed|paid|'))).toBe(true)
    expect(report.violations).toEqual([])
  })

  it('forgets nothing across a redeploy in the reference mirror, and catches the memory-only mirror', async () => {
    const redeployed = program([
      { kind: 'subscribe', customer: 0, plan: 0, quantity: 1, trialDays: 0 },
      { kind: 'redeploy' },
      { kind: 'change_quantity', sub: 0, quantity: 2 },
    ])
    expect((await runFlow(redeployed, mirrorSubject(referenceSubscriptionMirror, {}, 'test'))).violations).toEqual([])
    const memory = await runFlow(redeployed, mirrorSubject(makeSubscriptionMirror({ memoryOnly: true }), {}, 'test'))
    expect(memory.violations.length).toBeGreaterThan(0)
  })
})

describe('every event type the flows cause, to an app subscribed to *', () => {
  it('sends payment_intent.*, charge.* and checkout.session.expired to the fulfilment client', async () => {
    const types = new Set<string>()
    const recording: FulfilmentClientFactory = (env) => {
      const inner = referenceFulfilmentClient(env)
      return {
        ...inner,
        async handler(req) {
          types.add((JSON.parse(await req.clone().text()) as { type: string }).type)
          return inner.handler(req)
        },
      }
    }
    await runFlow(
      program([
        { kind: 'x:checkout', mode: 'payment', customer: 0, plan: 0 },
        { kind: 'x:pay', session: 0, payment: 0, returns: false },
        { kind: 'x:checkout', mode: 'payment', customer: 1, plan: 1 },
        { kind: 'x:expire', session: 1 },
      ]),
      fulfilmentSubject(recording, 'test'),
    )
    for (const t of ['payment_intent.succeeded', 'charge.succeeded', 'checkout.session.completed', 'checkout.session.expired'])
      expect(types).toContain(t)
  })

  it('sends invoice.marked_uncollectible when the business writes an invoice off', async () => {
    const report = await runFlow(
      program([
        { kind: 'subscribe', customer: 0, plan: 0, quantity: 1, trialDays: 0 },
        { kind: 'fail_card', customer: 0 },
        { kind: 'advance', ms: 32 * DAY },
        { kind: 'x:write_off', customer: 0 },
        { kind: 'recover', customer: 0 },
      ]),
      dunningSubject(referenceDunningClient, 'test'),
    )
    expect(report.coverage.some((k) => k.startsWith('invoice.marked_uncollectible|'))).toBe(true)
    expect(report.violations).toEqual([])
  })
})

describe('coverage and steering', () => {
  it('reports the combinations each check reached', async () => {
    const result = await checkDunning(referenceDunningClient, { numRuns: 5 })
    expect(result.ok).toBe(true)
    const keys = Object.keys(result.coverage)
    expect(keys.length).toBeGreaterThan(5)
    for (const k of keys) expect(k).toMatch(/^[a-z_.]+\|[a-z_/]+\|[a-z_]+\|(none|redeployed|in_roll)$/)
  })

  it("carries a flow scenario's coverage into its run result, as the HTML report's coverage table", async () => {
    const result = await runScenario(loadScenarioFile(join(import.meta.dirname, '../../scenarios/dunning.yaml')))
    expect(result.coverage?.length ?? 0).toBeGreaterThan(0)
    const table = coverageTable(result.coverage ?? [])
    expect(table).toContain('<table id="coverage">')
    expect(table).toContain('invoice.payment_failed')
  }, 60_000)

  it('refuses a misspelt workload option instead of running the default workload', async () => {
    await expect(checkDunning(referenceDunningClient, { numRuns: 1, workload: { everyEvnt: true } as never })).rejects.toThrow(
      /checkDunning: unknown workload option\(s\) 'everyEvnt'; known: everyEvent/,
    )
  })

  it('refuses a workload value of the wrong kind with the option named, before any run', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [
        { faultKinds: ['bogus'] },
        /option 'workload\.faultKinds' names unknown fault kind\(s\) "bogus"; known: .*redundant_event/,
      ],
      [{ faultKinds: 'duplicate_delivery' }, /option 'workload\.faultKinds' must be an array of fault kinds/],
      [{ maxFaults: -1 }, /option 'workload\.maxFaults' must be an integer >= 0, got -1/],
      [{ maxSteps: 0 }, /option 'workload\.maxSteps' must be an integer >= 1, got 0/],
      [{ minSteps: 9, maxSteps: 3 }, /option 'workload\.minSteps' \(9\) must not exceed 'workload\.maxSteps' \(3\)/],
      [{ faultAims: [5] }, /option 'workload\.faultAims' must be an array of event type prefixes/],
      [{ episodeShare: 2 }, /option 'workload\.episodeShare' must be a number from 0 to 1, got 2/],
      [{ everyEvent: 'yes' }, /option 'workload\.everyEvent' must be true or false, got "yes"/],
      [
        { adversity: { kinds: ['nap'] } },
        /option 'workload\.adversity' kinds must be an array of redeploy, roll_secret, forge, redeliver/,
      ],
      [{ extraSteps: [{}] }, /option 'workload\.extraSteps' must be an array of fast-check arbitraries/],
    ]
    for (const [workload, message] of cases) {
      const refused = checkDunning(referenceDunningClient, { numRuns: 1, workload: workload as never })
      await expect(refused).rejects.toThrow(HarnessInputError)
      await expect(checkDunning(referenceDunningClient, { numRuns: 1, workload: workload as never })).rejects.toThrow(
        new RegExp(`^checkDunning: ${message.source}`),
      )
    }
  })

  it('refuses a flow program a user wrote wrongly, naming the step, instead of running it', async () => {
    const subject = () => mirrorSubject(referenceSubscriptionMirror, {}, 'test')
    const cases: [unknown, RegExp][] = [
      // `minutes` for `ms` advanced the clock by NaN and never ended.
      [
        { seed: 0, steps: [{ kind: 'advance', minutes: 180 }], faults: [] },
        /^runFlow: step 0 \('advance'\) has unknown field\(s\) 'minutes'; its fields: ms$/,
      ],
      [
        { seed: 0, steps: [{ kind: 'advance', ms: -5 }], faults: [] },
        /step 0 \('advance'\) field 'ms' must be a finite number of milliseconds >= 0, got -5/,
      ],
      [
        { seed: 0, steps: [{ kind: 'subscrbe', customer: 0 }], faults: [] },
        /step 0 has unknown kind "subscrbe" \(expected one of subscribe, /,
      ],
      [
        { seed: 0, steps: [{ kind: 'cancel', sub: -1, atPeriodEnd: 'yes' }], faults: [] },
        /field 'atPeriodEnd' must be true or false, got "yes"/,
      ],
      [
        { seed: 0, steps: [{ kind: 'forge', forgery: 'bad_sig', aim: 'invoice.' }], faults: [] },
        /field 'forgery' must be one of wrong_secret, altered_body, unsigned/,
      ],
      [{ seed: 0, steps: [], faults: [{ step: 1, fault: 'dup' }] }, /^runFlow: fault 0 /],
      [{ seed: 'x', steps: [], faults: [] }, /^runFlow: program 'seed' must be an integer, got "x"/],
      [{ seed: 0, steps: [], faults: [], everyevent: true }, /unknown program field\(s\) 'everyevent'/],
    ]
    for (const [program, message] of cases) {
      const refused = runFlow(program as never, subject())
      await expect(refused).rejects.toThrow(HarnessInputError)
      await expect(runFlow(program as never, subject())).rejects.toThrow(message)
    }
  })

  it('refuses what is not a trace, a program or a subject at the other entry points, naming the API', async () => {
    expect(() => checkFlowAdversity({} as never)).toThrow(
      /^checkFlowAdversity: expected the run's trace entries \(an array, e\.g\. sim\.trace\.entries\(\)\), got \{\}/,
    )
    expect(() => checkDunningTrace('trace' as never)).toThrow(HarnessInputError)
    expect(() => checkRuleTrace([], [{}] as never)).toThrow(/^checkRuleTrace: expected an array of rules/)
    expect(() => describeFlowProgram({ seed: 0, steps: [{ kind: 'advance' }], faults: [] } as never)).toThrow(
      /^describeFlowProgram: step 0 \('advance'\) field 'ms' must be a finite number/,
    )
    expect(() => minimiseFlow({ seed: 0, steps: [], faults: [] }, 'yes' as never)).toThrow(/^minimiseFlow: expected a predicate/)
    expect(() => fulfilmentWorkload(undefined as never)).toThrow(/^fulfilmentWorkload: expected how many payments/)
    await expect(runFlowCampaign({} as never, { runs: 1 })).rejects.toThrow(/^runFlowCampaign: expected a subject maker/)
  })

  it("refuses flow simOptions the harness sets itself or cannot honour, and takes clock 'global'", async () => {
    const cases: [unknown, RegExp][] = [
      [{ seed: 3 }, /^checkDunning: option 'simOptions\.seed' is set by the harness: each run's seed comes from its program$/],
      // Silently dropped before, then a 'fetch failed' from deep inside.
      [
        { faults: { preset: 'realistic' } },
        /^checkDunning: option 'simOptions\.faults' is set by the harness: pass 'faults' beside 'simOptions'$/,
      ],
      [{ clock: 'wall' }, /^checkDunning: option 'simOptions\.clock' may only be 'global' in a flow check/],
      ['x', /^checkDunning: option 'simOptions' must be an object of createSimulator options, got "x"$/],
    ]
    for (const [simOptions, message] of cases) {
      const refused = checkDunning(referenceDunningClient, { numRuns: 1, simOptions: simOptions as never })
      await expect(refused).rejects.toThrow(HarnessInputError)
      await expect(checkDunning(referenceDunningClient, { numRuns: 1, simOptions: simOptions as never })).rejects.toThrow(message)
    }
    const result = await checkDunning(referenceDunningClient, { numRuns: 2, simOptions: { clock: 'global' } })
    expect(result.ok).toBe(true)
  })

  it('refuses a seed that is not an integer instead of running some other seed', async () => {
    for (const seed of ['abc', 1.5, Number.NaN])
      await expect(checkDunning(referenceDunningClient, { numRuns: 1, seed: seed as never })).rejects.toThrow(
        /^checkDunning: option 'seed' must be an integer, got /,
      )
  })

  it('refuses a misspelt option instead of running the defaults, naming it', async () => {
    await expect(checkDunning(referenceDunningClient, { numruns: 1000 } as never)).rejects.toThrow(
      /^checkDunning: unknown option 'numruns'$/,
    )
    await expect(
      checkSubscriptionMirror(referenceSubscriptionMirror, { numRuns: 1, pastDueGraceMs: 0, sed: 3 } as never),
    ).rejects.toThrow(/^checkSubscriptionMirror: unknown option 'sed'$/)
  })

  it('subscribes the app to every event type when the workload says so', async () => {
    const result = await checkDunning(referenceDunningClient, { numRuns: 3, workload: { everyEvent: true } })
    expect(result.coverage && Object.keys(result.coverage).some((k) => k.startsWith('invoice.created|'))).toBe(true)
  }, 60_000)

  it('lists under the coverage table the known combinations no run reached', () => {
    const known = ['invoice.paid|paid|in_order|none', 'invoice.payment_failed|paid|out_of_order|none']
    const table = coverageTable({ 'invoice.paid|paid|in_order|none': 3 }, known)
    expect(table).toContain('1 of 2 known combinations reached')
    expect(table).toMatch(/<ul id="missing"><li><code>invoice\.payment_failed\|paid\|out_of_order\|none<\/code><\/li><\/ul>/)
    expect(coverageTable({ 'invoice.paid|paid|in_order|none': 3 }, known.slice(0, 1))).not.toContain('id="missing"')
  })

  it('explains the combinations no flow can produce, and none of the known ones is among them', () => {
    expect(impossibleCombination('invoice.paid|paid|forged|none')).toMatch(/never claims invoice.paid/)
    expect(impossibleCombination('customer.subscription.deleted|active|forged|redeployed')).toMatch(/never before a redeploy/)
    expect(impossibleCombination('invoice.payment_failed|paid|out_of_order|none')).toBeUndefined()
    for (const keys of Object.values(knownFlowCombinations)) {
      expect(keys.length).toBeGreaterThan(100)
      expect(keys.filter((k) => impossibleCombination(k) !== undefined)).toEqual([])
    }
  })

  it('draws the same programs for the same seed when steered, and lists the known combinations missed', async () => {
    const subject = () => dunningSubject(referenceDunningClient, 'test')
    const drawn = async () => {
      const programs: FlowProgram[] = []
      const report = await runFlowCampaign(subject, {
        runs: 16,
        workload: dunningWorkload(),
        known: knownFlowCombinations.checkDunning,
        onRun: (_run, _coverage, program) => programs.push(program),
      })
      return { programs, report }
    }
    const [a, b] = [await drawn(), await drawn()]
    expect(a.programs).toEqual(b.programs)
    expect(a.report.missing?.length).toBe(
      knownFlowCombinations.checkDunning.filter((k) => a.report.coverage[k] === undefined).length,
    )
  }, 120_000)

  it('reaches more combinations steered than plain generation in the same runs', async () => {
    const subject = () => dunningSubject(referenceDunningClient, 'test')
    const plain = await runFlowCampaign(subject, { runs: 60, workload: dunningWorkload(), steer: false })
    const steered = await runFlowCampaign(subject, { runs: 60, workload: dunningWorkload() })
    expect(steered.violations).toBe(0)
    expect(Object.keys(steered.coverage).length).toBeGreaterThan(Object.keys(plain.coverage).length)
  }, 120_000)
})
