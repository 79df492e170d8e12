import type { ResourceDeclaration } from '../engine/declaration.js'

/** Test clocks (plain for now: they do not advance billing yet). `frozen_time` is taken as given. */
export const testClocks: ResourceDeclaration = {
  type: 'TestHelpers.TestClock',
  object: 'test_helpers.test_clock',
  idPrefix: 'clock',
  defaults: ({ created }) => ({ deletes_after: created + 30 * 24 * 60 * 60, status: 'ready' }),
}
