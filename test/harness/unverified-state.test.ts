import {
  buggySubscriptionMirrors,
  checkDunning,
  dunningSubject,
  type FlowProgram,
  type FulfilmentClientFactory,
  fulfilmentSubject,
  makeDunningClient,
  mirrorSubject,
  referenceDunningClient,
  referenceFulfilmentClient,
  referenceSubscriptionMirror,
  runFlow,
} from 'service-sim/harness'
import { describe, expect, it } from 'vitest'

const DAY = 86_400_000
const subscribe = { kind: 'subscribe', customer: 0, plan: 0, quantity: 1, trialDays: 0 } as const
const program = (steps: unknown[], faults: unknown[] = []): FlowProgram => ({ seed: 3, steps, faults }) as FlowProgram
const variant = <F>(list: readonly { name: string; factory: F }[], name: string): F => {
  const found = list.find((v) => v.name === name)
  if (found === undefined) throw new Error(`no variant ${name}`)
  return found.factory
}
const writesFirst = variant(buggySubscriptionMirrors, 'writes-before-verifying')

describe('a delivery that is not genuine and changes what the app holds', () => {
  const forged = program([subscribe, { kind: 'forge', forgery: 'wrong_secret', aim: 'customer.subscription.' }])

  it('blames a mirror that writes before verifying for the forged cancellation, before what followed from it', async () => {
    const report = await runFlow(forged, mirrorSubject(writesFirst, {}, 'test'))
    expect(report.violations[0]?.checker).toBe('flow.forgery_ignored')
    expect(report.violations[0]?.message).toMatch(
      /^a forged delivery \(wrong_secret: customer\.subscription\.deleted, answered 400\) made the app hold sub_\w+ as status canceled \(it held status active; the provider: status active\)/,
    )
    // Its copy and the gate are wrong too, as a consequence: those verdicts follow.
    expect(report.violations.map((v) => v.checker)).toContain('mirror.access_withheld')
  }, 60_000)

  it('blames it for an old delivery replayed by an attacker too, naming the replay', async () => {
    const replayed = program(
      [subscribe, { kind: 'change_plan', sub: 0, plan: 2 }],
      [{ step: 2, fault: 'replay_delivery', count: 1 }],
    )
    const report = await runFlow(replayed, mirrorSubject(writesFirst, {}, 'test'))
    expect(report.violations[0]?.checker).toBe('flow.forgery_ignored')
    expect(report.violations[0]?.message).toMatch(/^a delivery of evt_\w+ that was not genuine \(an old signature replayed\)/)
  }, 60_000)

  it('passes the reference mirror, which verifies first, on the same programs', async () => {
    expect((await runFlow(forged, mirrorSubject(referenceSubscriptionMirror, {}, 'test'))).violations).toEqual([])
  }, 60_000)
})

describe("a forgery aimed at a shop's checkout", () => {
  // Fulfils whatever a delivery says was paid, before checking its signature.
  const actsFirst: FulfilmentClientFactory = (env) => {
    const inner = referenceFulfilmentClient(env)
    return {
      ...inner,
      async handler(req) {
        const event = JSON.parse(await req.clone().text()) as {
          type: string
          data: { object: { id: string; payment_status?: string } }
        }
        if (event.type === 'checkout.session.completed' && event.data.object.payment_status === 'paid')
          env.orders.fulfil(event.data.object.id)
        return inner.handler(req)
      },
    }
  }
  // Every session sent so far is paid: the attacker opens another checkout and forges its completion.
  const opened = program([
    { kind: 'x:checkout', mode: 'payment', customer: 0, plan: 1 },
    { kind: 'x:pay', session: 0, payment: 0, returns: false },
    { kind: 'x:checkout', mode: 'payment', customer: 0, plan: 1 },
    { kind: 'forge', forgery: 'unsigned', aim: 'checkout.session.' },
  ])

  it('claims a session still unpaid, so a shop fulfilling on forgeries ships it', async () => {
    const report = await runFlow(opened, fulfilmentSubject(actsFirst, 'test'))
    expect(report.violations[0]?.checker).toBe('flow.forgery_ignored')
    expect(report.steps.at(-1)).toMatch(/checkout\.session\.completed about cs_test_\w+: refused \(400\)/)
  }, 60_000)

  it('passes the reference shop', async () => {
    expect((await runFlow(opened, fulfilmentSubject(referenceFulfilmentClient, 'test'))).violations).toEqual([])
  }, 60_000)
})

describe('a failure delivered days late, after the invoice was paid', () => {
  const late = program([
    subscribe,
    { kind: 'fail_card', customer: 0 },
    { kind: 'x:late_failure' },
    { kind: 'advance', ms: 32 * DAY },
    { kind: 'recover', customer: 0 },
    { kind: 'advance', ms: 7 * DAY },
  ])

  it('is a step of the dunning flows: a client that forgets the payment notifies, the reference does not', async () => {
    const forgets = await runFlow(late, dunningSubject(makeDunningClient({ forgetsPaid: true }), 'test'))
    expect(forgets.violations.map((v) => v.checker)).toEqual(['dunning.notice_once'])
    expect(forgets.violations[0]?.message).toMatch(/dunning\.notice after the app accepted evt_\w+ \(invoice\.paid\)/)
    expect((await runFlow(late, dunningSubject(referenceDunningClient, 'test'))).violations).toEqual([])
  }, 60_000)

  it('is generated: checkDunning catches that client at the default runs', async () => {
    const result = await checkDunning(makeDunningClient({ forgetsPaid: true }), { seed: 1 })
    expect(result.ok).toBe(false)
    expect(result.violations?.[0]?.checker).toBe('dunning.notice_once')
  }, 120_000)
})
