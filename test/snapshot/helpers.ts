import fc from 'fast-check'
import { createSimulator, type Simulator } from '../../src/index.js'

export const HOOK_URL = 'https://hooks.example.test/a'

/** A stateless receiver (so a fork sharing it stays independent): events naming a "flaky" customer fail. */
export function receiver(req: Request): Promise<Response> {
  return req.text().then((body) => new Response('{}', { status: body.includes('flaky') ? 500 : 200 }))
}

export type Step =
  | { op: 'customer'; name: string }
  | { op: 'payment_intent'; amount: number; card: 'pm_card_visa' | 'pm_card_chargeDeclined' }
  | { op: 'meter_event'; value: number; identifier: string | undefined }
  | { op: 'stream'; values: number[] }
  | { op: 'advance'; ms: number }
  | { op: 'settle' }
  | { op: 'fault'; fault: 'lock_timeout' | 'rate_limit' | 'session_expiry' }
  | { op: 'update_customer'; index: number; name: string }

export const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('customer' as const), name: fc.constantFrom('ann', 'flaky bob', 'cy') }),
  fc.record({
    op: fc.constant('payment_intent' as const),
    amount: fc.integer({ min: 50, max: 10_000 }),
    card: fc.constantFrom('pm_card_visa' as const, 'pm_card_chargeDeclined' as const),
  }),
  fc.record({
    op: fc.constant('meter_event' as const),
    value: fc.integer({ min: 1, max: 9 }),
    identifier: fc.option(fc.constantFrom('i1', 'i2', 'i3'), { nil: undefined }),
  }),
  fc.record({
    op: fc.constant('stream' as const),
    values: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 3 }),
  }),
  fc.record({ op: fc.constant('advance' as const), ms: fc.constantFrom(1, 700, 5_000, 60_000, 3_600_000, 16 * 60_000) }),
  fc.record({ op: fc.constant('settle' as const) }),
  fc.record({
    op: fc.constantFrom('fault' as const),
    fault: fc.constantFrom('lock_timeout' as const, 'rate_limit' as const, 'session_expiry' as const),
  }),
  fc.record({ op: fc.constant('update_customer' as const), index: fc.nat(5), name: fc.constantFrom('flaky dee', 'eve') }),
)

/** Sets a simulator up: a meter, a destination (retries pending when a customer is flaky), a session. */
export async function setUp(seed: number): Promise<Simulator> {
  const sim = createSimulator({ seed })
  sim.receivers.mount(HOOK_URL, receiver)
  await json(sim, '/v2/core/event_destinations', {
    name: 'hooks',
    type: 'webhook_endpoint',
    event_payload: 'snapshot',
    enabled_events: ['customer.created', 'customer.updated', 'payment_intent.succeeded', 'payment_intent.payment_failed'],
    webhook_endpoint: { url: HOOK_URL },
  })
  await form(sim, '/v1/billing/meters', {
    event_name: 'api_call',
    display_name: 'API calls',
    'default_aggregation[formula]': 'sum',
  })
  return sim
}

export function form(sim: Simulator, path: string, fields: Record<string, string>): Promise<Response> {
  return sim.fetch(`https://api.service.test${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${sim.platform.secretKey.test}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  })
}

export function json(
  sim: Simulator,
  path: string,
  body: unknown,
  token = sim.platform.secretKey.test,
  host = 'api',
): Promise<Response> {
  return sim.fetch(`https://${host}.service.test${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
}

/** Runs one step and returns what a client saw (status and body), or '' for clock steps. */
export async function run(sim: Simulator, step: Step): Promise<string> {
  const answer = async (res: Response) => `${res.status} ${await res.text()}`
  switch (step.op) {
    case 'customer':
      return answer(await form(sim, '/v1/customers', { name: step.name }))
    case 'update_customer': {
      const list = sim.service.customers.list({ account: sim.platform.id, mode: 'test' })
      const c = list[step.index % Math.max(1, list.length)]
      if (c === undefined) return 'none'
      return answer(await form(sim, `/v1/customers/${String(c.id)}`, { name: step.name }))
    }
    case 'payment_intent':
      return answer(
        await form(sim, '/v1/payment_intents', {
          amount: String(step.amount),
          currency: 'usd',
          payment_method: step.card,
          confirm: 'true',
          'automatic_payment_methods[enabled]': 'true',
          'automatic_payment_methods[allow_redirects]': 'never',
        }),
      )
    case 'meter_event': {
      const customer = sim.service.customers.list({ account: sim.platform.id, mode: 'test' })[0]?.id ?? 'cus_none'
      return answer(
        await json(sim, '/v2/billing/meter_events', {
          event_name: 'api_call',
          payload: { service_customer_id: String(customer), value: String(step.value) },
          ...(step.identifier === undefined ? {} : { identifier: step.identifier }),
        }),
      )
    }
    case 'stream': {
      const session = await json(sim, '/v2/billing/meter_event_session', {})
      const text = await session.text()
      if (session.status !== 200) return `${session.status} ${text}`
      const token = (JSON.parse(text) as { authentication_token: string }).authentication_token
      const events = step.values.map((v) => ({
        event_name: 'api_call',
        payload: { service_customer_id: 'cus_x', value: String(v) },
      }))
      return `${text} ${await answer(await json(sim, '/v2/billing/meter_event_stream', { events }, token, 'meter-events'))}`
    }
    case 'advance':
      await sim.service.kernel.scheduler.advance(sim.clock.now + step.ms)
      return ''
    case 'settle':
      await sim.settle()
      return ''
    case 'fault':
      sim.admin.injectFault(
        step.fault === 'lock_timeout'
          ? { fault: 'lock_timeout' }
          : step.fault === 'rate_limit'
            ? { fault: 'rate_limit', reason: 'global-rate' }
            : { fault: 'session_expiry' },
      )
      return ''
  }
}

/**
 * A form request with the platform's test key; its status and JSON body.
 *
 * @example
 * const { status, json } = await call(sim, 'POST', '/v1/customers', 'name=ann')
 */
export async function call(sim: Simulator, method: 'GET' | 'POST' | 'DELETE', path: string, body?: string) {
  const res = await sim.fetch(`https://api.service.test${path}`, {
    method,
    headers: { Authorization: `Bearer ${sim.platform.secretKey.test}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    ...(body === undefined ? {} : { body }),
  })
  return { status: res.status, json: (await res.json()) as Record<string, unknown> }
}
