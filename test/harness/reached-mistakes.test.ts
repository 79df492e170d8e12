import {
  buggyDunningClients,
  buggySubscriptionMirrors,
  checkDunning,
  checkSubscriptionMirror,
  type FlowCheckResult,
} from 'service-sim/harness'
import { describe, expect, it } from 'vitest'

// Mistakes whose situation only an episode reaches often enough: a redeploy or a secret roll
// between two deliveries about a live subscription, a first payment failing, a failure delivered
// after the payment, a paid invoice beside a written-off one. At the default runs, so a generation
// change that stops drawing the situation fails here.
const mirrors = ['welcome-in-memory', 'grants-incomplete', 'first-signature-only']
const dunning = ['forgets-paid', 'reinstates-on-any-paid']

function expectCaught(result: FlowCheckResult, breaks: string | undefined): void {
  expect(result.ok).toBe(false)
  expect(result.violations?.[0]?.checker).toBe(breaks)
  expect(result.counterexample?.steps.length).toBeLessThanOrEqual(10)
}

describe('mistakes only an episode reaches are caught at the default runs', () => {
  for (const name of mirrors) {
    it(`checkSubscriptionMirror catches the ${name} mirror`, async () => {
      const v = buggySubscriptionMirrors.find((x) => x.name === name)
      if (v === undefined) throw new Error(`no bundled mirror ${name}`)
      expectCaught(await checkSubscriptionMirror(v.factory, { ...v.options }), v.breaks)
    }, 120_000)
  }
  for (const name of dunning) {
    it(`checkDunning catches the ${name} dunning client`, async () => {
      const v = buggyDunningClients.find((x) => x.name === name)
      if (v === undefined) throw new Error(`no bundled dunning client ${name}`)
      expectCaught(await checkDunning(v.factory), v.breaks)
    }, 120_000)
  }
})
