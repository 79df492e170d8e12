/**
 * The operations the simulator answers 501 `not_implemented` on purpose, each with why: what
 * cannot be answered honestly in process. Every other operation of the catalogue is served (the
 * catalogue walk holds the route table to this list; docs/catalogue.md shows it).
 *
 * @example
 * NOT_SERVED['accounts.reject'] // 'a platform rejecting a connected account ...'
 */
export const NOT_SERVED: Readonly<Record<string, string>> = {
  'accounts.reject':
    "a platform rejecting a connected account: the account's requirements and capabilities are worked out again on every change, and a rejection that outlasts them is not modelled",
  'accounts.unreject': 'the undoing of `accounts.reject` (see it)',
}
