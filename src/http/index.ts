/**
 * The HTTP layer as the layers above the simulator see it: declared routes and the exchange types
 * `serve` uses.
 *
 * The harness, the fixture and the CLI import a lower layer only through its index (checked by the
 * layering test), so what they rely on is listed here, in one place.
 *
 * @example
 * import { declaredError } from '#http/index.js'
 */
export { type DeclaredRequest, type DeclaredTable, declaredRefusal, serveDeclared } from './declared-routes/declared-dispatch.js'
export { DeclaredInputError, declaredError } from './declared-routes/declared-input.js'
export { type DeclaredInput, type DeclaredRoute, declaredPathNames, declaredRouteKey } from './declared-routes/declared-route.js'
export { DeclaredRouter } from './declared-routes/declared-router.js'
export type { Exchange, IncomingExchangeHandler } from './handler.js'
export { type IncomingUrl, lowercaseHeaderReader } from './incoming.js'
export { TextRequest } from './text-request.js'
export { createTransport } from './transport.js'
