import { METER_PROCESSING_DELAY } from 'service-sim'
import { test } from 'service-sim/vitest'
import Stripe from 'stripe'
import { expect } from 'vitest'
import { createUsageReporter } from './usage-reporter.js'

test.override({ simOptions: { headerPrefix: 'Stripe', start: '2026-03-01T09:00:00Z' } })

test('reports an hour of usage across three token expiries, every unit counted once', async ({ sim }) => {
  const httpClient = Stripe.createFetchHttpClient(sim.fetch)
  const admin = new Stripe(sim.platform.secretKey.test, { httpClient })
  const meter = await admin.billing.meters.create({
    display_name: 'API calls',
    event_name: 'api_call',
    default_aggregation: { formula: 'sum' },
  })
  const reporter = createUsageReporter({ apiKey: sim.platform.secretKey.test, eventName: 'api_call', httpClient })
  let expected = 0
  for (let minute = 0; minute < 60; minute += 5) {
    await reporter.report([{ customer: 'cus_demo', value: minute + 1, timestamp: sim.clock.now }])
    expected += minute + 1
    await sim.clock.tickAsync(5 * 60_000)
  }
  await sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
  expect(reporter.sessionsOpened).toBe(4)
  expect(sim.admin.meterSummary({ meter: meter.id, customer: 'cus_demo' }).value).toBe(expected)
})

test('sends more than 100 usage records as several stream requests', async ({ sim }) => {
  const httpClient = Stripe.createFetchHttpClient(sim.fetch)
  const admin = new Stripe(sim.platform.secretKey.test, { httpClient })
  const meter = await admin.billing.meters.create({
    display_name: 'API calls',
    event_name: 'api_call',
    default_aggregation: { formula: 'sum' },
  })
  const reporter = createUsageReporter({ apiKey: sim.platform.secretKey.test, eventName: 'api_call', httpClient })
  const usage = Array.from({ length: 250 }, () => ({ customer: 'cus_demo', value: 1, timestamp: sim.clock.now }))
  await reporter.report(usage)
  await sim.clock.tickAsync(METER_PROCESSING_DELAY.max)
  const streamed = sim.trace.filter('http').filter((e) => e.kind === 'http' && String(e.data.path).endsWith('meter_event_stream'))
  expect(streamed).toHaveLength(3)
  expect(sim.admin.meterSummary({ meter: meter.id, customer: 'cus_demo' }).value).toBe(250)
})
