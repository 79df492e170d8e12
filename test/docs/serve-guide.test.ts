import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createSimulator } from 'service-sim'
import { describe, expect, it } from 'vitest'

const guide = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'serve.md'), 'utf8')
const triggers = guide.slice(guide.indexOf('## Triggers'), guide.indexOf('\n## ', guide.indexOf('## Triggers') + 1))

/** What the serve guide's Triggers section says of the checkout triggers, held to what they do. */
describe('the serve guide on triggers', () => {
  const named = [...triggers.matchAll(/`(checkout\.session\.[a-z_]+)`/g)].map((m) => m[1] as string)

  it('names the checkout triggers it describes, and refuses none of them', () => {
    expect(named).toEqual(
      expect.arrayContaining(['checkout.session.async_payment_succeeded', 'checkout.session.async_payment_failed']),
    )
    expect(triggers).not.toMatch(/`checkout\.session\.[a-z_]+` (is|are) refused/)
  })

  for (const type of ['checkout.session.async_payment_succeeded', 'checkout.session.async_payment_failed']) {
    it(`causes ${type} by API calls (a stored session), not a generated event`, async () => {
      const sim = createSimulator({ seed: 1, headerPrefix: 'Stripe' })
      const event = await sim.admin.trigger(type)
      expect(event.type).toBe(type)
      expect(event.requests.length).toBeGreaterThan(0)
      expect(sim.admin.events({ type }).length).toBe(1)
    })
  }
})
