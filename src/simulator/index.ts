/**
 * The simulator layer as the harness, the fixture and the CLI see it: the composition root, its
 * options and its parts.
 *
 * The harness, the fixture and the CLI import a lower layer only through its index (checked by the
 * layering test), so what they rely on is listed here, in one place.
 *
 * @example
 * import { Simulator } from '#simulator/index.js'
 */

// A receiver is mounted on the simulator (`sim.receivers`); its handler type is the HTTP layer's.
export type { ReceiverHandler } from '#http/receivers.js'
export { continueAs, createSimulator, incomingExchangeOf, keepForForks } from './create-simulator.js'
export { fixtureFailure } from './fixtures.js'
export type { Simulator } from './simulator.js'
export type { SimulatorOptions } from './simulator-options.js'
export type { Snapshot } from './snapshot.js'
export { triggerTypes } from './trigger-recipes.js'
