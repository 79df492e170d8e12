import {
  buggyDunningClients,
  buggyFulfilmentClients,
  buggySubscriptionMirrors,
  checkDunning,
  dunningRules,
  dunningSubject,
  type FlowProgram,
  type FlowSubject,
  fulfilmentRules,
  fulfilmentSubject,
  makeDunningClient,
  mirrorSubject,
  referenceDunningClient,
  runFlow,
  subscriptionMirrorRules,
} from 'service-sim/harness'
import { describe, expect, it } from 'vitest'

const DAY = 86_400_000
const subscribe = (trialDays = 0) => ({ kind: 'subscribe', customer: 0, plan: 0, quantity: 1, trialDays }) as const
const program = (steps: readonly unknown[], faults: readonly unknown[] = []) =>
  ({ seed: 1, faults, steps }) as unknown as FlowProgram

const failedRenewal = program([subscribe(), { kind: 'fail_card', customer: 0 }, { kind: 'advance', ms: 32 * DAY }])
const checkout = { kind: 'x:checkout', mode: 'payment', customer: 0, plan: 1 }

type Maker = (name: string, options: Record<string, unknown>) => FlowSubject
const variant = <F>(list: readonly { name: string; factory: F; options?: Readonly<Record<string, unknown>> }[], name: string) => {
  const v = list.find((x) => x.name === name)
  if (v === undefined) throw new Error(`no variant ${name}`)
  return v
}
const mirror: Maker = (name, options) => {
  const v = variant(buggySubscriptionMirrors, name)
  return mirrorSubject(v.factory, { ...v.options, ...options }, 'pin')
}
const shop: Maker = (name, options) => fulfilmentSubject(variant(buggyFulfilmentClients, name).factory, 'pin', options)
const dunning: Maker = (name, options) => {
  const v = variant(buggyDunningClients, name)
  return dunningSubject(v.factory, 'pin', { ...v.options, ...options })
}

/** One rule, the variant that breaks it alone, and a program that shows it. */
interface Pin {
  readonly rule: string
  readonly variant: string
  readonly subject: Maker
  readonly program: FlowProgram
  readonly options?: Record<string, unknown>
  /** What the verdict must say (the rule may have several ways to break). */
  readonly says?: RegExp
}

const pins: readonly Pin[] = [
  {
    rule: 'mirror.converged',
    variant: 'ignores-cancel-at-period-end',
    subject: mirror,
    program: program([subscribe(), { kind: 'cancel', sub: 0, atPeriodEnd: true }]),
  },
  { rule: 'mirror.access_granted', variant: 'past-due-keeps-access', subject: mirror, program: failedRenewal },
  { rule: 'mirror.access_withheld', variant: 'revokes-on-first-failure', subject: mirror, program: failedRenewal },
  {
    rule: 'mirror.welcome_once',
    variant: 'welcome-on-activation',
    subject: mirror,
    program: program([subscribe(3), { kind: 'end_trial', sub: 0 }]),
  },
  {
    rule: 'mirror.welcome_once',
    variant: 'welcome-in-memory',
    subject: mirror,
    program: program([subscribe(), { kind: 'redeploy' }, { kind: 'change_quantity', sub: -1, quantity: 2 }]),
    says: /email\.welcome a second time/,
  },
  {
    rule: 'mirror.access_granted',
    variant: 'grants-incomplete',
    subject: mirror,
    program: program([
      { kind: 'fail_card', customer: 2 },
      { kind: 'subscribe', customer: 2, plan: 0, quantity: 1, trialDays: 0 },
    ]),
    says: /incomplete/,
  },
  {
    rule: 'mirror.access_granted',
    variant: 'grants-paused',
    subject: mirror,
    program: program([subscribe(), { kind: 'x:pause', sub: -1 }]),
    says: /paused/,
  },
  {
    rule: 'flow.genuine_refused',
    variant: 'first-signature-only',
    subject: mirror,
    program: program([
      subscribe(),
      { kind: 'roll_secret', redeployAfterMs: 3_600_000 },
      { kind: 'change_quantity', sub: -1, quantity: 2 },
    ]),
    says: /signed with the destination's secrets active then, was refused with 400/,
  },
  { rule: 'ack.genuine_refused', variant: 'refuses-other-events', subject: mirror, program: program([subscribe()]) },
  {
    rule: 'fulfilment.unpaid',
    variant: 'completed-regardless',
    subject: shop,
    program: program([
      { ...checkout, customer: -1 },
      { kind: 'x:pay', session: 0, payment: 4, returns: false },
    ]),
    says: /showed it not paid/,
  },
  {
    rule: 'fulfilment.once',
    variant: 'event-id-dedupe',
    subject: shop,
    program: program([checkout, { kind: 'x:pay', session: 0, payment: 0, returns: true }]),
    says: /fulfil 2 time/,
  },
  {
    rule: 'fulfilment.once',
    variant: 'ignores-async-succeeded',
    subject: shop,
    program: program([checkout, { kind: 'x:pay', session: 0, payment: 4, returns: false }]),
    says: /fulfil 0 time/,
  },
  {
    rule: 'fulfilment.once',
    variant: 'paid-only',
    subject: shop,
    program: program([
      { kind: 'x:checkout', mode: 'subscription', customer: 0, plan: 0, trialDays: 7 },
      { kind: 'x:pay', session: 0, payment: 0, returns: false },
    ]),
    says: /fulfil 0 time.*its end state \(.*payment_status no_payment_required.*\) obliges it, and the app accepted evt_\w+ \(checkout\.session\.completed\), which showed it so/,
  },
  {
    rule: 'fulfilment.once',
    variant: 'reverses-customer',
    subject: shop,
    program: program([
      checkout,
      { kind: 'x:pay', session: -1, payment: 0, returns: false },
      checkout,
      { kind: 'x:pay', session: -1, payment: 5, returns: false },
      { kind: 'advance', ms: DAY },
    ]),
    says: /reversed 1 time.*checkout\.session\.async_payment_failed.*\(an event about another object, cs_\w+: take back only what the event is about\)/,
  },
  {
    rule: 'fulfilment.reversed',
    variant: 'never-reverses',
    subject: shop,
    options: { provisional: true },
    program: program([checkout, { kind: 'x:pay', session: 0, payment: 5, returns: false }]),
  },
  {
    rule: 'ack.genuine_refused',
    variant: 'refuses-expired',
    subject: shop,
    program: program([checkout, { kind: 'x:expire', session: 0 }]),
  },
  {
    rule: 'flow.genuine_refused',
    variant: 'conflict-on-duplicate',
    subject: shop,
    program: program(
      [checkout, { kind: 'x:pay', session: 0, payment: 0, returns: false }],
      [{ step: 2, fault: 'duplicate_delivery', count: 1 }],
    ),
  },
  {
    rule: 'dunning.notice_once',
    variant: 'notice-every-attempt',
    subject: dunning,
    program: program([
      subscribe(),
      { kind: 'fail_card', customer: 0 },
      { kind: 'advance', ms: 32 * DAY },
      { kind: 'advance', ms: 7 * DAY },
    ]),
    says: /notice\(s\) for one failed attempt cycle/,
  },
  {
    rule: 'dunning.notice_once',
    variant: 'forgets-paid',
    subject: dunning,
    program: program(
      [
        subscribe(),
        { kind: 'fail_card', customer: 0 },
        { kind: 'advance', ms: 32 * DAY },
        { kind: 'recover', customer: 0 },
        { kind: 'advance', ms: 3 * DAY },
      ],
      [{ step: 3, fault: 'delay_delivery', count: 1, delay: 2 * DAY, operation: 'invoice.payment_failed' }],
    ),
    says: /after the app accepted evt_\w+ \(invoice\.paid\)/,
  },
  {
    rule: 'dunning.restored_once',
    variant: 'never-restores',
    subject: dunning,
    program: program([
      subscribe(),
      { kind: 'fail_card', customer: 0 },
      { kind: 'advance', ms: 32 * DAY },
      { kind: 'recover', customer: 0 },
    ]),
  },
  { rule: 'ack.genuine_refused', variant: 'refuses-unhandled', subject: dunning, program: program([subscribe()]) },
  {
    rule: 'dunning.standing',
    variant: 'never-restricts',
    subject: dunning,
    program: program([
      subscribe(),
      { kind: 'fail_card', customer: 0 },
      { kind: 'advance', ms: 32 * DAY },
      { kind: 'x:write_off', customer: 0 },
    ]),
    says: /in_\w+ written off .* never restricted the account/,
  },
  {
    rule: 'dunning.standing',
    variant: 'reinstates-on-any-paid',
    subject: dunning,
    program: program([
      subscribe(),
      { kind: 'fail_card', customer: 0 },
      { kind: 'advance', ms: 32 * DAY },
      { kind: 'x:write_off', customer: 0 },
      { kind: 'x:update_card', customer: 0 },
      { kind: 'x:renewal', customer: 0 },
    ]),
    says: /in_\w+ written off .* had reinstated it/,
  },
  {
    rule: 'dunning.standing',
    variant: 'ignores-void',
    subject: dunning,
    program: program([
      subscribe(),
      { kind: 'fail_card', customer: 0 },
      { kind: 'advance', ms: 32 * DAY },
      { kind: 'x:write_off', customer: 0 },
      { kind: 'x:void', customer: 0 },
    ]),
    says: /still restricted at the end though none of its invoices is uncollectible .*provider then: customer cus_\w+ \(no status\)\)$/,
  },
  {
    rule: 'dunning.standing',
    variant: 'restricts-late-write-off',
    // Pinned, not bundled: its story is drawn on 19 of 20 seeds at the default runs.
    subject: (_name, options) => dunningSubject(makeDunningClient({ restrictsLateWriteOff: true }), 'pin', options),
    program: program(
      [
        subscribe(),
        { kind: 'fail_card', customer: 0 },
        { kind: 'advance', ms: 32 * DAY },
        { kind: 'x:write_off', customer: 0 },
        { kind: 'recover', customer: 0 },
      ],
      [{ step: 4, fault: 'delay_delivery', count: 1, delay: 2 * 3_600_000, operation: 'invoice.marked_uncollectible' }],
    ),
    says: /still restricted at the end though none of its invoices is uncollectible/,
  },
  {
    rule: 'ack.before_durable',
    variant: 'answers-first',
    subject: dunning,
    program: failedRenewal,
    says: /recorded after the app had answered 200/,
  },
]

describe('every rule is pinned by a variant that breaks it alone', () => {
  for (const pin of pins) {
    it(`${pin.rule}: the ${pin.variant} variant breaks it, and nothing else`, async () => {
      const report = await runFlow(pin.program, pin.subject(pin.variant, pin.options ?? {}))
      expect(report.violations.map((v) => v.checker)).toEqual([pin.rule])
      if (pin.says !== undefined) expect(report.violations[0]?.message).toMatch(pin.says)
    }, 60_000)
  }

  it('passes the reference dunning client that lifts a restriction when the written-off invoice is voided', async () => {
    const voided = pins.find((p) => p.variant === 'ignores-void')?.program
    if (voided === undefined) throw new Error('no void pin')
    expect(
      (await runFlow(voided, dunningSubject(referenceDunningClient, 'pin', { standing: { liftOnVoid: true } }))).violations,
    ).toEqual([])
  }, 60_000)

  it('draws a write-off delivered after its payment: the late write-off client is caught at the default runs, the reference passes its pin', async () => {
    const late = pins.find((p) => p.variant === 'restricts-late-write-off')?.program
    if (late === undefined) throw new Error('no late write-off pin')
    expect((await runFlow(late, dunningSubject(referenceDunningClient, 'pin'))).violations).toEqual([])
    const result = await checkDunning(makeDunningClient({ restrictsLateWriteOff: true }), { seed: 1 })
    expect(result.violations?.[0]?.checker).toBe('dunning.standing')
  }, 120_000)

  it('lets an app keep a forgiven customer restricted unless it promises to lift on void', async () => {
    const voided = pins.find((p) => p.variant === 'ignores-void')?.program
    if (voided === undefined) throw new Error('no void pin')
    const ignoresVoid = variant(buggyDunningClients, 'ignores-void').factory
    expect((await runFlow(voided, dunningSubject(ignoresVoid, 'pin'))).violations).toEqual([])
    const promised = await runFlow(voided, dunningSubject(ignoresVoid, 'pin', { standing: { liftOnVoid: true } }))
    expect(promised.violations.map((v) => v.checker)).toEqual(['dunning.standing'])
    // The promise is checkDunning's option, refused when it cannot be read.
    await expect(checkDunning(ignoresVoid, { numRuns: 1, standing: { liftOnVoid: 'yes' as never } })).rejects.toThrow(
      "checkDunning: option 'standing.liftOnVoid' is invalid: Invalid input: expected boolean, received string",
    )
  }, 60_000)

  it('leaves no rule of the three rule sets without a pin', () => {
    const produced = (name: string) => (name === 'mirror.access' ? ['mirror.access_granted', 'mirror.access_withheld'] : [name])
    const names = [...subscriptionMirrorRules(), ...fulfilmentRules(), ...dunningRules()].flatMap((r) => produced(r.name))
    const pinned = new Set(pins.map((p) => p.rule))
    expect(names.filter((n) => !pinned.has(n))).toEqual([])
    // fulfilment.reversed is the end-state verdict of fulfilment.once's rule on a failed delayed payment.
    expect(pinned.has('fulfilment.reversed')).toBe(true)
  })
})
