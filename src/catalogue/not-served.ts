/**
 * The operations the simulator answers 501 `not_implemented` on purpose, each with why: what
 * cannot be answered honestly in process. Every other operation of the catalogue is served (the
 * catalogue walk holds the route table to this list; docs/catalogue.md shows it). The list is
 * empty: every operation of the official client is served.
 *
 * @example
 * Object.keys(NOT_SERVED).length // 0
 */
export const NOT_SERVED: Readonly<Record<string, string>> = {}
