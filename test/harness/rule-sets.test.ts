import fc from 'fast-check'
import { verifySignature } from 'service-sim'
import {
  acknowledgesDurably,
  acknowledgesGenuine,
  atMostOnce,
  checkRules,
  checkSubscriptionMirror,
  defineRuleSet,
  dunningSubject,
  exactlyOnce,
  type FlowAction,
  HarnessInputError,
  makeDunningClient,
  makeSubscriptionMirror,
  mirrorSubject,
  mountApp,
  neverAfter,
  onlyWhile,
  type RuleEnv,
  referenceDunningClient,
  referenceSubscriptionMirror,
  ruleSetSubject,
  runFlow,
  stateMatches,
} from 'service-sim/harness'
import { describe, expect, it } from 'vitest'

const DAY = 86_400_000

// A user's own webhook code: a marketplace credits the buyer's wallet when a refund is made.
interface Refund {
  readonly id: string
  readonly amount: number
  readonly status: string
  readonly payment_intent: string
}
interface RefundsApp {
  handler(request: Request): Promise<Response>
  /** The wallet credit per refund, as the app's database holds it. */
  credited(): Record<string, number>
}

const charge: FlowAction = async (ctx, step) => {
  const made = await ctx.api('POST', '/v1/payment_intents', {
    amount: String(1000 * (1 + Number((step as { size?: number }).size))),
    currency: 'usd',
    payment_method: 'pm_card_visa',
    confirm: 'true',
    'automatic_payment_methods[enabled]': 'true',
    'automatic_payment_methods[allow_redirects]': 'never',
  })
  return `charge ${String(made.body.id ?? made.status)}`
}
const refund: FlowAction = async (ctx, step) => {
  const list = await ctx.api('GET', '/v1/payment_intents?limit=100')
  const intents = ((list.body.data ?? []) as { id: string }[]).reverse()
  const pi = intents[Number((step as { charge?: number }).charge) % Math.max(1, intents.length)]
  if (pi === undefined) return 'no charge'
  const made = await ctx.api('POST', '/v1/refunds', { payment_intent: pi.id, amount: '300' })
  return `refund of ${pi.id}: ${made.status}`
}

const refunds = defineRuleSet<RefundsApp>({
  name: 'refunds',
  eventTypes: ['refund.created', 'charge.refunded'],
  objects: ['refund'],
  actions: { 'x:charge': charge, 'x:refund': refund },
  workload: {
    builtInSteps: false,
    firstStep: fc.record({ kind: fc.constant('x:charge' as const), size: fc.nat(2) }),
    extraSteps: [
      fc.record({ kind: fc.constant('x:charge' as const), size: fc.nat(2) }),
      fc.record({ kind: fc.constant('x:refund' as const), charge: fc.nat(3) }),
    ],
    faultAims: ['refund.', 'charge.'],
  },
  rules: [
    atMostOnce('wallet.credit', { name: 'refunds.credited_once' }),
    exactlyOnce('wallet.credit', { name: 'refunds.credited', object: 'refund', when: (s) => s.status === 'succeeded' }),
    onlyWhile('wallet.credit', (s) => s.status === 'succeeded', { name: 'refunds.only_succeeded', what: 'succeeded' }),
    stateMatches<RefundsApp>('refunds.wallet', {
      app: (app) => app.credited(),
      provider: (view) => {
        const out: Record<string, number> = {}
        for (const r of view.list('refund') as unknown as Refund[]) if (r.status === 'succeeded') out[r.id] = r.amount
        return out
      },
    }),
  ],
})

/** The refunds app: verifies, credits each refund once (by an atomic insert keyed by the refund), ignores other types. */
function refundsApp(flaws: { noDedupe?: boolean; refusesOther?: boolean; dollars?: boolean } = {}) {
  return (env: RuleEnv): RefundsApp => {
    // The wallet lives in the app's database; memory is a cache loaded when the app starts (a redeploy keeps it).
    const wallet: Record<string, number> = {}
    const ready = env.store.keys('refund:').then(async (keys) => {
      for (const k of keys) wallet[k.slice('refund:'.length)] = Number(await env.store.get(k))
    })
    return {
      credited: () => ({ ...wallet }),
      async handler(req) {
        await ready
        const raw = await req.text()
        try {
          verifySignature(raw, req.headers.get(`${env.prefix}-Signature`), env.secrets(), { now: env.clock.now })
        } catch {
          return new Response('bad signature', { status: 400 })
        }
        const event = JSON.parse(raw) as { type: string; data: { object: Refund } }
        if (event.type !== 'refund.created')
          return flaws.refusesOther ? new Response('unhandled', { status: 500 }) : new Response('ok')
        const r = event.data.object
        const credit = flaws.dollars ? r.amount / 100 : r.amount
        const before = await env.store.update(`refund:${r.id}`, (p) => (flaws.noDedupe ? Number(p ?? 0) + credit : (p ?? credit)))
        if (before !== undefined && !flaws.noDedupe) return new Response('ok')
        wallet[r.id] = (wallet[r.id] ?? 0) + credit
        env.effects.record('wallet.credit', r.id, { amount: r.amount })
        return new Response('ok')
      },
    }
  }
}

describe('a user-written rule set (refunds)', () => {
  it('passes the correct refunds app over generated flows under every fault kind', async () => {
    const result = await checkRules(refundsApp(), refunds, { numRuns: 25 })
    expect(result.violations ?? []).toEqual([])
  }, 120_000)

  it('catches a wallet credited twice for one refund, naming the effect and the event it handled', async () => {
    const result = await checkRules(refundsApp({ noDedupe: true }), refunds, { numRuns: 60 })
    expect(result.ok).toBe(false)
    expect(result.violations?.map((v) => v.checker)).toContain('refunds.credited_once')
    expect(result.violations?.find((v) => v.checker === 'refunds.credited_once')?.message).toMatch(
      /^re_\w+: wallet\.credit a second time, while handling evt_\w+ \(refund\.created/,
    )
  }, 120_000)

  it('catches an app whose wallet drifts from the provider through the projection (it credits dollars, not cents)', async () => {
    const result = await checkRules(refundsApp({ dollars: true }), refunds, { numRuns: 60 })
    expect(result.violations?.map((v) => v.checker)).toEqual(['refunds.wallet'])
  }, 120_000)

  it('catches an app that answers 500 to a genuine event type it does not handle', async () => {
    const result = await checkRules(refundsApp({ refusesOther: true }), refunds, { numRuns: 20 })
    expect(result.violations?.map((v) => v.checker)).toEqual(['ack.genuine_refused'])
    expect(result.violations?.[0]?.message).toMatch(/^evt_\w+ \([a-z_.]+\): a genuine delivery answered 500/)
  }, 120_000)

  it('refuses a rule set without a name or with a rule that is not one', () => {
    expect(() => defineRuleSet({ name: '', rules: [] })).toThrow(HarnessInputError)
    expect(() => defineRuleSet({ name: 'x', rules: [{ name: 'r' } as never] })).toThrow(/rules\[0\] must be a rule/)
    expect(defineRuleSet({ name: 'x', rules: [] }).rules.map((r) => r.name)).toEqual([
      acknowledgesGenuine().name,
      acknowledgesDurably().name,
    ])
    expect(defineRuleSet({ name: 'x', rules: [], acknowledgement: false }).rules).toEqual([])
  })
})

describe("a projection that reads the app's database", () => {
  // The wallet lives only in the app's database: the projection reads it, as a query would, asynchronously.
  interface DbWalletApp {
    handler(request: Request): Promise<Response>
    credited(): Promise<Record<string, number>>
  }
  const dbRefunds = defineRuleSet<DbWalletApp>({
    name: 'refunds-db',
    eventTypes: refunds.eventTypes,
    objects: ['refund'],
    actions: refunds.actions,
    ...(refunds.workload === undefined ? {} : { workload: refunds.workload }),
    rules: [
      stateMatches<DbWalletApp>('refunds.wallet', {
        app: (app) => app.credited(),
        provider: (view) =>
          Object.fromEntries(
            (view.list('refund') as unknown as Refund[]).filter((r) => r.status === 'succeeded').map((r) => [r.id, r.amount]),
          ),
      }),
    ],
  })
  const dbApp =
    (cents = 1) =>
    (env: RuleEnv): DbWalletApp => ({
      async credited() {
        const out: Record<string, number> = {}
        for (const k of await env.store.keys('refund:')) out[k.slice('refund:'.length)] = Number(await env.store.get(k))
        return out
      },
      async handler(req) {
        const raw = await req.text()
        try {
          verifySignature(raw, req.headers.get(`${env.prefix}-Signature`), env.secrets(), { now: env.clock.now })
        } catch {
          return new Response('bad signature', { status: 400 })
        }
        const event = JSON.parse(raw) as { type: string; data: { object: Refund } }
        if (event.type === 'refund.created')
          await env.store.update(`refund:${event.data.object.id}`, (p) => p ?? event.data.object.amount / cents)
        return new Response('ok')
      },
    })

  it("waits for the app's answer: the correct app passes, a wallet in dollars fails with the rule named", async () => {
    const ok = await checkRules(dbApp(), dbRefunds, { numRuns: 15 })
    expect(ok.violations ?? []).toEqual([])
    const dollars = await checkRules(dbApp(100), dbRefunds, { numRuns: 15 })
    expect(dollars.violations?.map((v) => v.checker)).toEqual(['refunds.wallet'])
    expect(dollars.violations?.[0]?.message).toMatch(/^re_\w+: the app has 3, the provider 300$/)
  }, 120_000)
})

describe('a projection keyed by an aggregate (a wallet per charge)', () => {
  interface PerChargeApp {
    handler(request: Request): Promise<Response>
    perCharge(): Promise<Record<string, number>>
  }
  type Part = { readonly id: string; readonly charge: string; readonly amount: number; readonly status: string }
  const perCharge = (objectsOf?: boolean) =>
    defineRuleSet<PerChargeApp>({
      name: 'wallet-per-charge',
      eventTypes: refunds.eventTypes,
      objects: ['refund'],
      actions: refunds.actions,
      rules: [
        stateMatches<PerChargeApp>(
          'refunds.per_charge',
          {
            app: (app) => app.perCharge(),
            provider: (view) => {
              const out: Record<string, number> = {}
              for (const r of view.list('refund') as unknown as Part[])
                if (r.status === 'succeeded') out[r.charge] = (out[r.charge] ?? 0) + r.amount
              return out
            },
          },
          objectsOf
            ? {
                objectsOf: (charge, view) =>
                  (view.list('refund') as unknown as Part[]).filter((r) => r.charge === charge).map((r) => r.id),
              }
            : {},
        ),
      ],
      acknowledgement: false,
    })
  const app = (env: RuleEnv): PerChargeApp => ({
    async perCharge() {
      const out: Record<string, number> = {}
      for (const k of await env.store.keys('charge:')) out[k.slice('charge:'.length)] = Number(await env.store.get(k))
      return out
    },
    async handler(req) {
      const raw = await req.text()
      try {
        verifySignature(raw, req.headers.get(`${env.prefix}-Signature`), env.secrets(), { now: env.clock.now })
      } catch {
        return new Response('bad signature', { status: 400 })
      }
      const event = JSON.parse(raw) as { type: string; data: { object: Part } }
      const r = event.data.object
      if (event.type === 'refund.created' && (await env.store.update(`refund:${r.id}`, (p) => p ?? true)) === undefined)
        await env.store.update(`charge:${r.charge}`, (p) => Number(p ?? 0) + r.amount)
      return new Response('ok')
    },
  })
  // The receiver is down from the first refund to the end: the provider gives up on its events.
  const lost = {
    seed: 1,
    faults: [{ step: 1, fault: 'receiver_down', count: 1 }],
    steps: [
      { kind: 'x:charge', size: 0 },
      { kind: 'x:refund', charge: 0 },
      { kind: 'advance', ms: DAY },
      { kind: 'x:refund', charge: 0 },
    ],
  } as never

  it('judges a key only once the events about each of its objects (objectsOf) were accepted', async () => {
    const judged = await runFlow(lost, ruleSetSubject(app, perCharge(true), 'test'))
    expect(judged.violations).toEqual([])
  }, 60_000)

  it('without objectsOf, compares the aggregate though one of its refunds was never delivered', async () => {
    const judged = await runFlow(lost, ruleSetSubject(app, perCharge(false), 'test'))
    expect(judged.violations.map((v) => v.message)).toEqual([
      expect.stringMatching(/^ch_\w+: the app has 300, the provider 600$/),
    ])
  }, 60_000)
})

describe('access policy of the subscription mirror', () => {
  const failedRenewal = {
    seed: 1,
    faults: [],
    steps: [
      { kind: 'subscribe', customer: 0, plan: 0, quantity: 1, trialDays: 0 },
      { kind: 'fail_card', customer: 0 },
      { kind: 'advance', ms: 32 * DAY },
    ],
  } as const
  const week = { access: { pastDueGraceMs: 7 * DAY } }

  it('fails an app that revokes at the first failed renewal when its policy promises a grace', async () => {
    const report = await runFlow(failedRenewal, mirrorSubject(makeSubscriptionMirror(), week, 'test'))
    expect(report.violations.map((v) => v.checker)).toEqual(['mirror.access_withheld'])
    expect(report.violations[0]?.message).toMatch(/^cus_\w+ was refused access, which the policy grants to sub_\w+ past_due$/)
  }, 60_000)

  it('passes an app that keeps the promised grace, and fails it once the grace is over', async () => {
    const graced = makeSubscriptionMirror({}, { pastDueGraceMs: 7 * DAY })
    expect((await runFlow(failedRenewal, mirrorSubject(graced, week, 'test'))).violations).toEqual([])
    const later = { ...failedRenewal, steps: [...failedRenewal.steps, { kind: 'advance', ms: 4 * DAY }] } as const
    const stale = await runFlow(later as never, mirrorSubject(graced, { access: { pastDueGraceMs: 3 * DAY } }, 'test'))
    expect(stale.violations.map((v) => v.checker)).toEqual(['mirror.access_granted'])
  }, 60_000)

  it('requires access for the statuses the policy grants', async () => {
    const report = await runFlow(
      failedRenewal,
      mirrorSubject(makeSubscriptionMirror(), { access: { grants: ['active', 'past_due'] } }, 'test'),
    )
    expect(report.violations.map((v) => v.checker)).toEqual(['mirror.access_withheld'])
  }, 60_000)
})

describe('dunning.notice_once after the invoice was paid', () => {
  // The renewal's failure is delivered two days late: the customer has fixed the card and paid by then.
  const latePaidFailure = {
    seed: 1,
    faults: [{ step: 3, fault: 'delay_delivery', count: 1, delay: 2 * DAY, operation: 'invoice.payment_failed' }],
    steps: [
      { kind: 'subscribe', customer: 0, plan: 0, quantity: 1, trialDays: 0 },
      { kind: 'fail_card', customer: 0 },
      { kind: 'advance', ms: 32 * DAY },
      { kind: 'recover', customer: 0 },
      { kind: 'advance', ms: 3 * DAY },
    ],
  }

  it('passes the reference, which ignores a failure of an invoice it knows is paid', async () => {
    const report = await runFlow(latePaidFailure as never, dunningSubject(referenceDunningClient, 'test'))
    expect(report.violations).toEqual([])
  }, 60_000)

  it('fails a client that notifies a paid invoice, naming the invoice.paid it had accepted and the stale event', async () => {
    const report = await runFlow(latePaidFailure as never, dunningSubject(makeDunningClient({ forgetsPaid: true }), 'test'))
    expect(report.violations.map((v) => v.checker)).toEqual(['dunning.notice_once'])
    expect(report.violations[0]?.message).toMatch(
      /^in_\w+: dunning\.notice after the app accepted evt_\w+ \(invoice\.paid\), while handling evt_\w+ \(invoice\.payment_failed, .*provider then: status paid/,
    )
  }, 60_000)
})

describe('rule builders and app mounts refuse what cannot work, where the user writes it', () => {
  it('names the builder and the argument', () => {
    expect(() => atMostOnce(undefined as never)).toThrow(HarnessInputError)
    expect(() => atMostOnce('')).toThrow(/^atMostOnce: the effect kind must be a non-empty string/)
    expect(() => exactlyOnce('order.fulfil', {} as never)).toThrow(/^exactlyOnce: 'when' must be a function, got undefined/)
    expect(() => onlyWhile('order.fulfil', 'paid' as never)).toThrow(/^onlyWhile: 'holds' must be a function, got "paid"/)
    expect(() => neverAfter('dunning.notice', 'invoice.paid' as never)).toThrow(
      /^neverAfter: the event types must be a non-empty array of strings, got "invoice.paid"/,
    )
    expect(() => atMostOnce('email.welcome', { name: 5 } as never)).toThrow(
      /^atMostOnce: option 'name' must be a non-empty string/,
    )
    expect(() => stateMatches('refunds.mirrored', { app: () => ({}) } as never)).toThrow(
      /^stateMatches: 'projection.provider' must be a function/,
    )
    expect(() => stateMatches('x', { app: () => ({}), provider: () => ({}) }, { when: 'always' as never })).toThrow(
      /^stateMatches: option 'when' must be 'final' or 'settled'/,
    )
    expect(() => mountApp(() => ({ app: () => new Response('') }), { webhookPath: 'hooks' })).toThrow(
      /^mountApp: option 'webhookPath' must be a path starting with '\/', got "hooks"/,
    )
  })

  it('refuses an access policy granting a status subscriptions do not have', async () => {
    await expect(
      checkSubscriptionMirror(referenceSubscriptionMirror, { numRuns: 1, access: { grants: ['actve' as never] } }),
    ).rejects.toThrow(
      /^checkSubscriptionMirror: option 'access\.grants\.0' is invalid: Invalid option: expected one of "incomplete"/,
    )
  })
})
