/**
 * The operations the simulator answers 501 `not_implemented` on purpose, each with why: what
 * cannot be answered honestly in process. Every other operation of the catalogue is served (the
 * catalogue walk holds the route table to this list; docs/catalogue.md shows it).
 *
 * @example
 * NOT_SERVED['customers.listSources'] // 'the legacy Sources API ...'
 */
export const NOT_SERVED: Readonly<Record<string, string>> = {
  'customers.createSource':
    'the legacy Sources API on customers: its objects are a union of cards, bank accounts and sources the simulator keeps as payment methods instead',
  'customers.deleteSource': 'the legacy Sources API on customers (see customers.createSource)',
  'customers.listSources': 'the legacy Sources API on customers (see customers.createSource)',
  'customers.retrieveSource': 'the legacy Sources API on customers (see customers.createSource)',
  'customers.updateSource': 'the legacy Sources API on customers (see customers.createSource)',
  'customers.verifySource': 'the legacy Sources API on customers (see customers.createSource)',
}
