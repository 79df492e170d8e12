import { verifySignature } from 'service-sim'
import { checkRules, defineRuleSet, type FlowProgram, type RuleEnv, ruleSetSubject, runFlow } from 'service-sim/harness'
import { describe, expect, it } from 'vitest'
import { type OnboardingApp, onboardingApp, onboardingRules } from './fixtures/connect-onboarding-apps.js'

const onboarding = onboardingRules(true)

/** One account opened with card payments, onboarded; one without them, whose details are submitted. */
const onboardTwo: FlowProgram = {
  seed: 1,
  faults: [],
  steps: [
    { kind: 'x:open_account', cards: true },
    { kind: 'x:open_account', cards: false },
    { kind: 'x:submit_details', account: 0, part: 'identity' },
    { kind: 'x:submit_details', account: 0, part: 'bank' },
    { kind: 'x:submit_details', account: 1, part: 'identity' },
    { kind: 'x:submit_details', account: 1, part: 'bank' },
  ],
}

const checkersOf = (violations: readonly { checker: string }[] | undefined) => [
  ...new Set((violations ?? []).map((v) => v.checker)),
]

describe('a Connect onboarding rule set', () => {
  it('sends connected accounts events, each with its account, through the Connect endpoint and its own secret', async () => {
    const seen: { account: string | undefined; platformSigned: boolean; connectSigned: boolean }[] = []
    const recording = (env: RuleEnv): OnboardingApp => ({
      accounts: async () => ({}),
      async handler(req: Request) {
        const raw = await req.text()
        const header = req.headers.get(`${env.prefix}-Signature`)
        const signed = (secrets: readonly string[]) => {
          try {
            verifySignature(raw, header, secrets, { now: env.clock.now })
            return true
          } catch {
            return false
          }
        }
        const event = JSON.parse(raw) as { account?: string }
        seen.push({ account: event.account, platformSigned: signed(env.secrets()), connectSigned: signed(env.connectSecrets()) })
        return new Response('ok')
      },
    })
    await runFlow(onboardTwo, ruleSetSubject(recording, onboarding, 'test'))
    expect(seen.length).toBeGreaterThanOrEqual(6)
    expect(seen.every((s) => s.account?.startsWith('acct_') && s.connectSigned && !s.platformSigned)).toBe(true)
    expect(new Set(seen.map((s) => s.account)).size).toBe(2)
  })

  it('rolls the Connect endpoint secret with the platform one, and a correct app redeployed within the overlap passes', async () => {
    const held: (readonly string[])[] = []
    const app = (env: RuleEnv) => {
      held.push(env.connectSecrets())
      return onboardingApp()(env)
    }
    const rolled: FlowProgram = {
      seed: 1,
      faults: [],
      steps: [
        { kind: 'x:open_account', cards: true },
        { kind: 'roll_secret', redeployAfterMs: 45_000 },
        { kind: 'x:submit_details', account: 0, part: 'identity' },
        { kind: 'x:submit_details', account: 0, part: 'bank' },
      ],
    }
    const report = await runFlow(rolled, ruleSetSubject(app, onboarding, 'test'))
    expect(report.violations).toEqual([])
    expect(held.map((s) => s.length)).toEqual([1, 2])
    expect(held[1]?.[0]).toBe(held[0]?.[0])
  })

  it('delivers none of them to an app without a Connect endpoint, as the provider routes them', async () => {
    const report = await runFlow(onboardTwo, ruleSetSubject(onboardingApp(), onboardingRules(false), 'test'))
    expect(checkersOf(report.violations)).toEqual(['onboarding.mirrored', 'onboarding.selling'])
  })

  it('passes an app that mirrors each account as read and sells only while charges are enabled', async () => {
    const result = await checkRules(onboardingApp(), onboarding, { numRuns: 40, seed: 1 })
    expect(result.violations ?? []).toEqual([])
    expect(result.ok).toBe(true)
  }, 120_000)

  it('catches an app that enables selling once the details are submitted, charges enabled or not', async () => {
    const result = await checkRules(onboardingApp({ sellsOnDetails: true }), onboarding, { numRuns: 40, seed: 1 })
    expect(result.ok).toBe(false)
    expect(checkersOf(result.violations)).toContain('onboarding.sells_only_enabled')
    expect(result.counterexample?.steps.length).toBeLessThanOrEqual(10)
  }, 120_000)

  it('catches an app that drops events whose account is not the platform, so never sees its sellers', async () => {
    const result = await checkRules(onboardingApp({ platformEventsOnly: true }), onboarding, { numRuns: 40, seed: 1 })
    expect(result.ok).toBe(false)
    expect(checkersOf(result.violations)).toContain('onboarding.mirrored')
  }, 120_000)

  it('catches an app that verifies Connect deliveries with the platform endpoint secret', async () => {
    const result = await checkRules(onboardingApp({ platformSecretOnly: true }), onboarding, { numRuns: 40, seed: 1 })
    expect(result.ok).toBe(false)
    expect(checkersOf(result.violations)).toContain('flow.genuine_refused')
    expect(result.violations?.find((v) => v.checker === 'flow.genuine_refused')?.message).toContain('env.connectSecrets()')
  }, 120_000)

  it('catches an app that mirrors the event payload, which an older event delivered late overwrites', async () => {
    const result = await checkRules(onboardingApp({ trustsPayload: true }), onboarding, { seed: 1 })
    expect(result.ok).toBe(false)
    expect(checkersOf(result.violations).some((c) => c.startsWith('onboarding.'))).toBe(true)
  }, 120_000)

  it('refuses a connect option that is not a boolean, naming the API', () => {
    expect(() => defineRuleSet({ name: 'x', rules: [], connect: 'yes' as unknown as boolean })).toThrow(
      /defineRuleSet\(x\): option 'connect' must be a boolean/,
    )
  })
})
