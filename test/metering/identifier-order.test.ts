import { test as propTest } from '@fast-check/vitest'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { api, errorOf, meteringSim } from './helpers.js'

const event = (identifier: string, value: number, customer = 'cus_1') => ({
  identifier,
  event_name: 'api_call',
  payload: { service_customer_id: customer, value: String(value) },
})

/** Processed sum of the meter for a customer, read through the public event summaries. */
async function processedSum(a: ReturnType<typeof api>, meter: string, customer = 'cus_1'): Promise<number> {
  const start = Math.floor(a.sim.clock.now / 86_400_000) * 86_400 - 86_400
  const res = await a.get(
    `/v1/billing/meters/${meter}/event_summaries?customer=${customer}&start_time=${start}&end_time=${start + 3 * 86_400}`,
  )
  const body = (await res.json()) as { data: { aggregated_value: number }[] }
  return body.data.reduce((n, s) => n + s.aggregated_value, 0)
}

describe('meter event identifiers are taken in submission order', () => {
  propTest.prop([fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 4_000 })], {
    numRuns: 25,
  })(
    'the first submission of an identifier is the one aggregated, whatever the seed draws for processing',
    async (seed, n, gap) => {
      const a = api(meteringSim({ seed }))
      const meter = await a.meter()
      const s = await a.session()
      const ids = Array.from({ length: n }, (_, i) => `dup-${i}`)
      // Two requests with the same identifiers and other values; the second may be processed first.
      expect(
        (
          await a.stream(
            s.authentication_token,
            ids.map((id) => event(id, 1)),
          )
        ).status,
      ).toBe(200)
      await a.sim.clock.tickAsync(gap)
      expect(
        (
          await a.stream(
            s.authentication_token,
            ids.map((id) => event(id, 7)),
          )
        ).status,
      ).toBe(200)
      await a.sim.clock.tickAsync(60_000)
      expect(await processedSum(a, meter.id)).toBe(n)
      expect(a.sim.admin.meterStats()).toMatchObject({ processedEvents: n, duplicateEvents: n, pendingEvents: 0 })
    },
  )

  it('refuses a synchronous event with 400 duplicate_meter_event while a stream event with its identifier is still unprocessed', async () => {
    const a = api()
    const meter = await a.meter()
    const s = await a.session()
    await a.stream(s.authentication_token, [event('first', 2)])
    const refused = await a.json('/v2/billing/meter_events', event('first', 9))
    expect(await errorOf(refused)).toMatchObject({ status: 400, code: 'duplicate_meter_event' })
    await a.sim.clock.tickAsync(60_000)
    expect(await processedSum(a, meter.id)).toBe(2)
  })

  it('gives an identifier back when its event fails validation, so a corrected event counts', async () => {
    const a = api()
    const meter = await a.meter()
    const s = await a.session()
    await a.stream(s.authentication_token, [{ ...event('fix-me', 1), payload: { service_customer_id: 'cus_1', value: 'x' } }])
    await a.sim.clock.tickAsync(60_000)
    await a.stream(s.authentication_token, [event('fix-me', 4)])
    await a.sim.clock.tickAsync(60_000)
    expect(await processedSum(a, meter.id)).toBe(4)
    expect(a.sim.admin.meterStats()).toMatchObject({ invalidEvents: 1, duplicateEvents: 0 })
  })
})
