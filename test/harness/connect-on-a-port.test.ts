import { checkRules, type FlowProgram, type RunServer, ruleSetSubject, runFlow, serveRuns } from 'service-sim/harness'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { onboardingRules } from './fixtures/connect-onboarding-apps.js'
import { type OnboardingLayout, startOnboardingServer } from './fixtures/onboarding-server.js'

const onboarding = onboardingRules(true)
const stripe = { headerPrefix: 'Stripe' } as const

/** One seller onboarded with card payments: its account and capability events come from the Connect endpoint. */
const onboardOne: FlowProgram = {
  seed: 1,
  faults: [],
  steps: [
    { kind: 'x:open_account', cards: true },
    { kind: 'x:submit_details', account: 0, part: 'identity' },
    { kind: 'x:submit_details', account: 0, part: 'bank' },
  ],
}

const checkersOf = (violations: readonly { checker: string }[] | undefined) => [
  ...new Set((violations ?? []).map((v) => v.checker)),
]

describe('a Connect rule set against an app on a port', () => {
  let server: RunServer
  beforeAll(async () => {
    server = await serveRuns()
  })
  afterAll(() => server.close())

  /** The app started on a port of its own, and the harness's factory for it. */
  async function started(layout: OnboardingLayout = {}, connectWebhookPath?: string) {
    const app = await startOnboardingServer(server, layout)
    const factory = server.app({
      url: app.url,
      ...(connectWebhookPath === undefined ? {} : { connectWebhookPath }),
      reset: async () => void (await fetch(`${app.url}/test/reset`, { method: 'POST' })),
      state: () => ({ accounts: async () => (await fetch(`${app.url}/test/accounts`)).json() }),
    })
    return { app, factory }
  }

  it('gives the app a Connect secret of its own, as it gives the platform one', () => {
    expect(server.connectWebhookSecret).toMatch(/^whsec_/)
    expect(server.connectWebhookSecret).not.toBe(server.webhookSecret)
  })

  it("passes an app that verifies with both secrets, the connected accounts' events reaching it signed with the Connect one", async () => {
    const { app, factory } = await started()
    try {
      const report = await runFlow(onboardOne, ruleSetSubject(factory, onboarding, 'test'), stripe)
      expect(report.violations).toEqual([])
      const connected = app.answers.filter((a) => a.account?.startsWith('acct_'))
      expect(connected.length).toBeGreaterThanOrEqual(3)
      expect(connected.every((a) => a.status === 200 && a.path === '/webhook')).toBe(true)
    } finally {
      await app.close()
    }
  })

  it('catches an app that verifies them with the platform secret only, the verdict naming the Connect secret', async () => {
    const { app, factory } = await started({ platformSecretOnly: true })
    try {
      const report = await runFlow(onboardOne, ruleSetSubject(factory, onboarding, 'test'), stripe)
      expect(checkersOf(report.violations)).toContain('flow.genuine_refused')
      expect(report.violations.find((v) => v.checker === 'flow.genuine_refused')?.message).toContain('connectWebhookSecret')
    } finally {
      await app.close()
    }
  })

  it('sends them to the Connect route the app names, and a route without the Connect secret refuses them', async () => {
    const routed = await started({ connectRoute: '/connect/webhook' }, '/connect/webhook')
    const unrouted = await started({ connectRoute: '/connect/webhook' })
    try {
      const passed = await runFlow(onboardOne, ruleSetSubject(routed.factory, onboarding, 'test'), stripe)
      expect(passed.violations).toEqual([])
      expect(routed.app.answers.filter((a) => a.account !== undefined).every((a) => a.path === '/connect/webhook')).toBe(true)
      const refused = await runFlow(onboardOne, ruleSetSubject(unrouted.factory, onboarding, 'test'), stripe)
      expect(checkersOf(refused.violations)).toContain('flow.genuine_refused')
    } finally {
      await routed.app.close()
      await unrouted.app.close()
    }
  })

  it('runs under checkRules, generated programs and their faults included', async () => {
    const { app, factory } = await started()
    try {
      const result = await checkRules(factory, onboarding, { ...stripe, numRuns: 3, seed: 1 })
      expect(result.violations ?? []).toEqual([])
      expect(app.answers.some((a) => a.account !== undefined && a.status === 200)).toBe(true)
    } finally {
      await app.close()
    }
  }, 60_000)
})

describe("serveRuns' Connect options", () => {
  it.each([
    [{ connectWebhookSecret: 42 }, /^serveRuns: option 'connectWebhookSecret' must be a non-empty string .*got 42$/],
    [{ connectWebhookSecret: '' }, /^serveRuns: option 'connectWebhookSecret' must be a non-empty string .*got ""$/],
    [{ connectWebhookSecret: 'whsec_a,v1=forged' }, /^serveRuns: option 'connectWebhookSecret' must be a non-empty string/],
    [
      { webhookSecret: 'whsec_same', connectWebhookSecret: 'whsec_same' },
      /^serveRuns: option 'connectWebhookSecret' must differ/,
    ],
    [{ webhookSecret: ['whsec_a'] }, /^serveRuns: option 'webhookSecret' must be a non-empty string .*got \["whsec_a"\]$/],
  ])('refuses %j, naming the API and the option', async (options, message) => {
    await expect(serveRuns(options as never)).rejects.toThrow(message)
  })

  it('refuses a Connect route that is not a path, naming the API and the option', async () => {
    const server = await serveRuns()
    try {
      for (const path of ['connect', 42, null])
        expect(() => server.app({ url: 'http://127.0.0.1:9', connectWebhookPath: path as never })).toThrow(
          /^serveRuns: app\(\) option 'connectWebhookPath' must be a path starting with '\/'/,
        )
    } finally {
      await server.close()
    }
  })
})
