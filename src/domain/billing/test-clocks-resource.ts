import { errorMessage } from '#catalogue/errors.js'
import {
  TEST_CLOCK_ADVANCE_MAX,
  TEST_CLOCK_LIFETIME_MS,
  TEST_CLOCK_MAX_FROZEN_TIME,
  TEST_CLOCK_NAME_MAX_LENGTH,
} from '#catalogue/rules.js'
import { checkLength } from '../engine/checks.js'
import type { OperationCall, ResourceDeclaration } from '../engine/declaration.js'
import type { Engine } from '../engine/engine.js'
import type { ResourcePorts } from '../resource-ports.js'
import { invalidRequest } from '../service-error.js'
import { boundary, type Interval } from './calendar.js'

const badFrozenTime = (detail: string) =>
  invalidRequest(errorMessage('parameter_invalid', { param: 'frozen_time', detail }), {
    code: 'parameter_invalid',
    param: 'frozen_time',
  })

/**
 * The furthest a clock frozen at `frozen` (s) may be advanced to, as the provider documents: two
 * intervals of its shortest live subscription, or two years when it has none.
 */
function advanceLimit(engine: Engine, call: OperationCall, clockId: string, frozen: number): { at: number; why: string } {
  const customers = new Set(
    engine
      .resource('customer')
      .list(call.scope)
      .filter((c) => c.test_clock === clockId)
      .map((c) => c.id),
  )
  const from = frozen * 1000
  const { intervals, yearsWithoutSubscriptions } = TEST_CLOCK_ADVANCE_MAX
  let limit = { at: boundary(from, 'year', yearsWithoutSubscriptions, 1), why: `${yearsWithoutSubscriptions} years` }
  let shortest = Number.POSITIVE_INFINITY
  for (const sub of engine.resource('subscription').list(call.scope)) {
    if (!customers.has(String(sub.customer)) || sub.status === 'canceled' || sub.status === 'incomplete_expired') continue
    const items = (sub.items as { data?: { price?: { recurring?: { interval?: Interval; interval_count?: number } } }[] })?.data
    const recurring = items?.[0]?.price?.recurring
    if (recurring?.interval === undefined) continue
    const count = Number(recurring.interval_count ?? 1)
    const at = boundary(from, recurring.interval, count, intervals)
    if (at < shortest) {
      shortest = at
      limit = { at, why: `${intervals} intervals of its shortest subscription (${count} ${recurring.interval})` }
    }
  }
  return { at: Math.floor(limit.at / 1000), why: limit.why }
}

/**
 * Test clocks: each has its own frozen time; customers created with `test_clock` (and their
 * subscriptions, invoices and retries) are billed on it. `advance` answers `advancing` and queues
 * the work on the simulator's due-time queue at the current instant; it runs the clock's billing
 * work due up to the new `frozen_time` in order, then the clock is `ready`
 * (`test_helpers.test_clock.advancing` / `.ready`). See "Test clocks" in docs/decisions/billing-subscriptions.md.
 */
export const testClocks: ResourceDeclaration<ResourcePorts> = {
  type: 'TestHelpers.TestClock',
  object: 'test_helpers.test_clock',
  idPrefix: 'clock',
  defaults: ({ created }) => ({
    deletes_after: created + TEST_CLOCK_LIFETIME_MS / 1000,
    status: 'ready',
  }),
  behaviours: {
    'testHelpers.testClocks.create'(call, next, { ports }) {
      const frozen = Number(call.params.frozen_time)
      if (call.params.frozen_time !== undefined && (frozen < 0 || frozen > TEST_CLOCK_MAX_FROZEN_TIME))
        throw badFrozenTime(`must be a unix timestamp between 0 and ${TEST_CLOCK_MAX_FROZEN_TIME}`)
      checkLength(call.params.name, 'name', TEST_CLOCK_NAME_MAX_LENGTH)
      const created = next() as { id: string; frozen_time: number }
      ports.billing.registerClock(call.scope, created.id, Number(created.frozen_time) * 1000)
      return created
    },
    'testHelpers.testClocks.advance'(call, _next, { engine, ports }) {
      const clocks = engine.resource('test_helpers.test_clock')
      const clock = clocks.require(call.scope, call.path.id ?? '')
      const target = Number(call.params.frozen_time)
      if (clock.status === 'advancing') {
        throw invalidRequest(errorMessage('test_clock_unexpected_state'), { code: 'test_clock_unexpected_state' })
      }
      if (!Number.isSafeInteger(target) || target <= Number(clock.frozen_time))
        throw badFrozenTime(`must be after the test clock's current frozen_time (${String(clock.frozen_time)})`)
      const limit = advanceLimit(engine, call, clock.id, Number(clock.frozen_time))
      if (target > limit.at)
        throw badFrozenTime(`cannot be more than ${limit.why} after the current frozen_time (at most ${limit.at})`)
      return ports.billing.advanceClock(call.scope, clock.id, target, call.origin)
    },
    'testHelpers.testClocks.retrieve'(call, next, { ports }) {
      ports.billing.completeAdvance(call.scope, call.path.id ?? '')
      return next()
    },
    'testHelpers.testClocks.list'(call, next, { engine, ports }) {
      for (const c of engine.resource('test_helpers.test_clock').list(call.scope)) ports.billing.completeAdvance(call.scope, c.id)
      return next()
    },
    'testHelpers.testClocks.del'(call, next, { engine, ports }) {
      const id = call.path.id ?? ''
      engine.resource('test_helpers.test_clock').require(call.scope, id)
      const answer = next()
      ports.billing.dropClock(call.scope, id, call.origin)
      return answer
    },
  },
}
