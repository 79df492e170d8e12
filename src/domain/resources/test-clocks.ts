import { errorMessage } from '#catalogue/errors.js'
import { TEST_CLOCK_LIFETIME_MS } from '#catalogue/rules.js'
import type { ResourceDeclaration } from '../engine/declaration.js'
import { invalidRequest } from '../service-error.js'
import type { ResourcePorts } from './ports.js'

/**
 * Test clocks: each has its own frozen time; customers created with `test_clock` (and their
 * subscriptions, invoices and retries) are billed on it. `advance` answers `advancing` and queues
 * the work on the simulator's due-time queue at the current instant; it runs the clock's billing
 * work due up to the new `frozen_time` in order, then the clock is `ready`
 * (`test_helpers.test_clock.advancing` / `.ready`). See docs/decisions.md "Test clocks".
 */
export const testClocks: ResourceDeclaration<ResourcePorts> = {
  type: 'TestHelpers.TestClock',
  object: 'test_helpers.test_clock',
  idPrefix: 'clock',
  defaults: ({ created }) => ({
    deletes_after: created + TEST_CLOCK_LIFETIME_MS / 1000,
    status: 'ready',
    status_details: {},
  }),
  behaviours: {
    'testHelpers.testClocks.create'(call, next, { ports }) {
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
      if (!Number.isSafeInteger(target) || target <= Number(clock.frozen_time)) {
        throw invalidRequest(
          errorMessage('parameter_invalid', {
            param: 'frozen_time',
            detail: `must be after the test clock's current frozen_time (${String(clock.frozen_time)})`,
          }),
          { code: 'parameter_invalid', param: 'frozen_time' },
        )
      }
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
