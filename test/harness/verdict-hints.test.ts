import { verifySignature } from 'service-sim'
import {
  checkRules,
  defineRuleSet,
  exactlyOnce,
  type FlowProgram,
  mirrorSubject,
  type RuleEnv,
  referenceSubscriptionMirror,
  runFlow,
  type SubscriptionMirrorFactory,
} from 'service-sim/harness'
import { describe, expect, it } from 'vitest'

const DAY = 86_400_000
const program = (steps: unknown[], faults: unknown[] = []): FlowProgram => ({ seed: 7, steps, faults }) as FlowProgram
const subscribe = { kind: 'subscribe', customer: 0, plan: 0, quantity: 1, trialDays: 0 }

/** The reference mirror behind a signature check of the app's own making. */
const checkedBy =
  (
    check: (raw: string, header: string | null, env: Parameters<SubscriptionMirrorFactory>[0]) => boolean,
  ): SubscriptionMirrorFactory =>
  (env) => {
    const inner = referenceSubscriptionMirror(env)
    return {
      ...inner,
      async handler(req) {
        if (!check(await req.clone().text(), req.headers.get(`${env.prefix}-Signature`), env))
          return new Response('refused', { status: 400 })
        return inner.handler(req)
      },
    }
  }

const verifies = (raw: string, header: string | null, secrets: readonly string[], now: number) => {
  try {
    verifySignature(raw, header, secrets, { now })
    return true
  } catch {
    return false
  }
}

describe('a signature age measured on a clock other than the run', () => {
  // As an app calling constructEvent without the time received: its own clock, here a year ahead.
  const ownClock = checkedBy((raw, header, env) => verifies(raw, header, env.secrets(), env.clock.now + 365 * DAY))

  it('names the clock, not only the secrets, when no genuine delivery was accepted', async () => {
    const report = await runFlow(program([subscribe]), mirrorSubject(ownClock, {}, 'test'), { headerPrefix: 'Stripe' })
    expect(report.violations.find((v) => v.checker === 'flow.genuine_refused')?.message).toMatch(
      /no genuine delivery was accepted: if the app checks the signature's age on its own clock \(constructEvent reads Date\.now\(\) unless given receivedAt.*pass env\.clock\.now as the time received/,
    )
  })

  it("brings Date.now() to the run's time at each delivery under simOptions clock global, and restores Date after", async () => {
    const RealDate = Date
    // Reads the global clock itself, as constructEvent's default does.
    const globalClock = checkedBy((raw, header, env) => verifies(raw, header, env.secrets(), Date.now()))
    // The harness's typed options leave the clock out; the flows honour the documented 'global'.
    const options = { headerPrefix: 'Stripe', simOptions: { clock: 'global' } } as never
    const steps = [subscribe, { kind: 'advance', ms: 40 * DAY }, { kind: 'change_quantity', sub: 0, quantity: 2 }]
    const report = await runFlow(program(steps), mirrorSubject(globalClock, {}, 'test'), options)
    expect(report.violations).toEqual([])
    expect(globalThis.Date).toBe(RealDate)
  })
})

describe('a replay guard that refuses signatures not newer than the last accepted', () => {
  let last = 0
  const newestOnly = checkedBy((raw, header, env) => {
    if (!verifies(raw, header, env.secrets(), env.clock.now)) return false
    const t = Number(/t=(\d+)/.exec(header ?? '')?.[1])
    if (t <= last) return false
    last = t
    return true
  })

  it('says a genuine delivery was signed no later than one accepted before it', async () => {
    last = 0
    const report = await runFlow(program([subscribe]), mirrorSubject(newestOnly, {}, 'test'))
    expect(report.violations.find((v) => v.checker === 'flow.genuine_refused')?.message).toMatch(
      /every refused attempt was signed no later than one the app had accepted before it .*a home-made replay guard/,
    )
  })
})

describe("a rule's test reading a field an object's state does not carry", () => {
  // A receipt for each paid invoice with an amount: amount_paid is not among the state fields.
  const receipts = defineRuleSet<{ handler(r: Request): Promise<Response> }>({
    name: 'receipts',
    eventTypes: ['invoice.paid'],
    objects: ['invoice'],
    rules: [
      exactlyOnce('email.receipt', {
        name: 'receipts.sent',
        object: 'invoice',
        when: (s) => s.status === 'paid' && Number(s.amount_paid) > 0,
      }),
    ],
  })
  const app = (env: RuleEnv) => ({
    async handler(req: Request) {
      const raw = await req.text()
      const event = JSON.parse(raw) as { type: string; data: { object: { id: string } } }
      if (event.type === 'invoice.paid' && (await env.store.update(`r:${event.data.object.id}`, (p) => p ?? true)) === undefined)
        env.effects.record('email.receipt', event.data.object.id)
      return new Response('ok')
    },
  })

  it('names the field the test read as undefined', async () => {
    const result = await checkRules(app, receipts, { numRuns: 3, seed: 1 })
    expect(result.violations?.[0]?.message).toMatch(
      /though its end state does not oblige it; the rule's test read amount_paid, which an object's state does not carry/,
    )
  })
})
