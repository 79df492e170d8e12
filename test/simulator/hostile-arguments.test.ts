import { createSimulator, headerNames, runOnClock, signatureHeader, verifySignature } from 'service-sim'
import { simulatorHandlers } from 'service-sim/msw'
import { describe, expect, it } from 'vitest'

const notObjects = [null, 'hostile', 42, []] as const

/** The trace's length and digest: a refusal must leave both as they were. */
function traceOf(sim: ReturnType<typeof createSimulator>): string {
  return `${sim.trace.entries().length}|${sim.trace.hash()}`
}

describe('hostile arguments to the simulator and its parts', () => {
  it('createSimulator refuses options that are no object, naming itself', () => {
    for (const options of notObjects)
      expect(() => createSimulator(options as never)).toThrow(/^createSimulator: options must be an object/)
  })

  it('admin.trigger refuses a type that is no event type name before tracing the trigger', async () => {
    const sim = createSimulator({ seed: 1 })
    const before = traceOf(sim)
    for (const type of [undefined, null, 42, 'not a type', {}]) {
      expect(() => sim.admin.trigger(type as never, { synthetic: true })).toThrow(/^trigger: '.*' is not an event type name/)
      await expect(sim.admin.triggerSync(type as never)).rejects.toThrow(/is not an event type name/)
    }
    expect(() => sim.admin.trigger('customer.created', { synthetic: true, account: 'acct_missing' })).toThrow(
      "trigger: no such account 'acct_missing'",
    )
    for (const options of [null, 42, 'synthetic'])
      expect(() => sim.admin.trigger('customer.created', options as never)).toThrow(/^trigger: options must be an object/)
    expect(traceOf(sim)).toBe(before)
    expect(sim.admin.trigger('customer.created', { synthetic: true }).type).toBe('customer.created')
  })

  it('the customer actions refuse an id or input of the wrong kind, naming the action, before acting or tracing', async () => {
    const sim = createSimulator({ seed: 1 })
    const before = traceOf(sim)
    for (const id of [undefined, null, 42, '', {}]) {
      await expect(sim.customer.completeCheckout(id as never)).rejects.toThrow(
        /^customer\.completeCheckout: sessionId must be a non-empty string/,
      )
      expect(() => sim.customer.confirmPaymentIntent(id as never)).toThrow(
        /^customer\.confirmPaymentIntent: clientSecret must be/,
      )
      expect(() => sim.customer.confirmSetupIntent(id as never)).toThrow(/^customer\.confirmSetupIntent: clientSecret must be/)
      expect(() => sim.customer.authenticate(id as never, { outcome: 'complete' })).toThrow(
        /^customer\.authenticate: intentId must be/,
      )
      expect(() => sim.customer.payInvoice(id as never, {} as never)).toThrow(/^customer\.payInvoice: invoiceId must be/)
      expect(() => sim.customer.portal(id as never)).toThrow(/^customer\.portal: sessionId must be/)
      expect(() => sim.customer.openPaymentLink(id as never, { account: sim.platform.id, mode: 'test' })).toThrow(
        /^customer\.openPaymentLink: link must be/,
      )
    }
    for (const input of notObjects) {
      await expect(sim.customer.completeCheckout('cs_test_1', input as never)).rejects.toThrow(
        /^customer\.completeCheckout: input must be an object/,
      )
      expect(() => sim.customer.authenticate('pi_1', input as never)).toThrow(/^customer\.authenticate: input must be an object/)
      expect(() => sim.customer.payInvoice('in_1', input as never)).toThrow(/^customer\.payInvoice: input must be an object/)
    }
    expect(traceOf(sim)).toBe(before)
  })

  it('the admin setup and lookup calls name themselves when given input of the wrong kind, and change nothing', () => {
    const sim = createSimulator({ seed: 1 })
    const before = traceOf(sim)
    for (const input of notObjects) {
      expect(() => sim.admin.createMeter(input as never)).toThrow(/^admin\.createMeter: input must be an object/)
      expect(() => sim.admin.meterSummary(input as never)).toThrow(/^admin\.meterSummary: input must be an object/)
      expect(() => sim.admin.billedUsage(input as never)).toThrow(/^admin\.billedUsage: input must be an object/)
      expect(() => sim.admin.createOrganisation(input as never)).toThrow(/^admin\.createOrganisation: input must be an object/)
      expect(() => sim.admin.injectFault(input as never)).toThrow(/^admin\.injectFault: expected a fault/)
      expect(() => sim.faults.inject(input as never)).toThrow(/^faults\.inject: expected a fault/)
    }
    for (const id of [undefined, null, 42]) {
      expect(() => sim.admin.locate(id as never)).toThrow(/^admin\.locate: id must be a string/)
      expect(() => sim.admin.objects(id as never, { account: sim.platform.id, mode: 'test' })).toThrow(
        /^admin\.objects: object must be a string/,
      )
      expect(() => sim.admin.locateBy(id as never, 'email', 'x')).toThrow(/^admin\.locateBy: object must be a string/)
      expect(() => sim.admin.find({ account: sim.platform.id, mode: 'test' }, id as never)).toThrow(
        /^admin\.find: id must be a string/,
      )
      expect(() => sim.admin.setApiVersion(sim.platform.id, id as never)).toThrow(
        /^admin\.setApiVersion: version must be a string/,
      )
      expect(() => sim.receivers.unmount(id as never)).toThrow(/^receivers\.unmount: url must be an absolute URL string/)
      expect(() => sim.receivers.get(id as never)).toThrow(/^receivers\.get: url must be/)
    }
    expect(() => sim.receivers.unmount('not a url')).toThrow("receivers.unmount: 'not a url' is not an absolute URL")
    expect(() => sim.faults.setRates(null as never)).toThrow(/^faults\.setRates: expected rates by fault kind/)
    expect(() => sim.fork('next' as never)).toThrow(/^fork: expected \{ seed, faults\? \}/)
    expect(() => sim.fork({} as never)).toThrow("fork: 'seed' must be a finite number or a string, got undefined")
    expect(() => sim.fork({ seed: 2, fault: { preset: 'realistic' } } as never)).toThrow(
      "fork: unknown option 'fault'; the options are 'seed' and 'faults'",
    )
    expect(traceOf(sim)).toBe(before)
  })

  it('the signature helpers refuse a body, secret, header or timestamp of the wrong kind with a TypeError naming them', () => {
    const header = signatureHeader('{}', ['whsec_x'], 1_767_225_600)
    expect(() => signatureHeader(42 as never, ['whsec_x'], 1)).toThrow(/^signatureHeader: body must be the raw body/)
    for (const secrets of [undefined, 'whsec_x', [42]])
      expect(() => signatureHeader('{}', secrets as never, 1)).toThrow(
        /^signatureHeader: secrets must be an array of signing secrets/,
      )
    for (const timestamp of [Number.NaN, 1.5, '1'])
      expect(() => signatureHeader('{}', ['whsec_x'], timestamp as never)).toThrow(
        /^signatureHeader: timestamp must be an integer/,
      )
    expect(() => verifySignature(42 as never, header, 'whsec_x')).toThrow(/^verifySignature: rawBody must be/)
    expect(() => verifySignature('{}', header, 42 as never)).toThrow(
      /^verifySignature: secret must be a signing secret or an array/,
    )
    expect(() => verifySignature('{}', 42 as never, 'whsec_x')).toThrow(
      /^verifySignature: header must be the signature header's value/,
    )
    expect(() => verifySignature('{}', header, 'whsec_x', null as never)).toThrow(/^verifySignature: options must be an object/)
    // A missing header is what a request can bring: still the verification error, as the official libraries give.
    expect(() => verifySignature('{}', null, 'whsec_x')).toThrow('No signature header found on the request.')
    expect(verifySignature('{}', header, ['whsec_y', 'whsec_x'], { now: 1_767_225_600_000 })).toBe(1_767_225_600)
  })

  it('headerNames, runOnClock and simulatorHandlers name themselves when given no prefix or no simulator', async () => {
    for (const prefix of [undefined, 42, '', 'Bad-Prefix'])
      expect(() => headerNames(prefix as never)).toThrow(/^headerNames: prefix must be/)
    for (const sim of [undefined, null, 'sim', {}]) {
      await expect(runOnClock(sim as never, Promise.resolve(1))).rejects.toThrow(/^runOnClock: sim must be a simulator/)
      expect(() => simulatorHandlers(sim as never)).toThrow(/^simulatorHandlers: sim must be a simulator/)
    }
    const sim = createSimulator({ seed: 1 })
    await expect(runOnClock(sim, 'work' as never)).rejects.toThrow(/^runOnClock: work must be a promise/)
    await expect(runOnClock(sim, Promise.resolve(1))).resolves.toBe(1)
  })
})
