/**
 * Operation names as users write them: in limit rows, read-allocation exclusions and fault
 * targets. The catalogue's name (the official client's call path, `paymentIntents.create`,
 * `v2.billing.meterEvents.create`) is the only name; this module knows which names exist and
 * words the refusal of one that does not, so a name from before the catalogue does not silently
 * match nothing.
 *
 * @example
 * unknownOperation('payment_intents.create', 'glob')
 * // "unknown operation 'payment_intents.create'; did you mean 'paymentIntents.create'?"
 */
import { operations } from './index.js'

/**
 * Operations the simulator serves that the official client does not have: the spec's off-session
 * payments, the dashboard's secret roll and manual event retry, and Connect OAuth on the connect
 * host (the client's hand-written `oauth` resource, outside its generated operations). Named in the
 * catalogue's style.
 *
 * @example
 * OWN_OPERATIONS.includes('v2.payments.offSessionPayments.create') // true
 */
export const OWN_OPERATIONS: readonly string[] = [
  'events.retry',
  'oauth.authorize',
  'oauth.deauthorize',
  'oauth.token',
  'v2.core.eventDestinations.rollSecret',
  'v2.payments.offSessionPayments.cancel',
  'v2.payments.offSessionPayments.create',
  'v2.payments.offSessionPayments.list',
  'v2.payments.offSessionPayments.retrieve',
]

/**
 * Names the hand-written routes used before every operation took the catalogue's name, to the
 * catalogue's name. Read only to word a refusal: none of them is accepted.
 *
 * @example
 * FORMER_NAMES['billing.meter_events.create'] // 'v2.billing.meterEvents.create'
 */
export const FORMER_NAMES: Readonly<Record<string, string>> = {
  'accounts.retrieve_self': 'accounts.retrieveCurrent',
  'balance_transactions.list': 'balanceTransactions.list',
  'balance_transactions.retrieve': 'balanceTransactions.retrieve',
  'billing.meter_event_adjustments.create': 'billing.meterEventAdjustments.create',
  'billing.meter_event_adjustments.create_v2': 'v2.billing.meterEventAdjustments.create',
  'billing.meter_event_session.create': 'v2.billing.meterEventSession.create',
  'billing.meter_event_stream.create': 'v2.billing.meterEventStream.create',
  'billing.meter_events.create': 'v2.billing.meterEvents.create',
  'billing.meter_events.create_v1': 'billing.meterEvents.create',
  'billing.meters.list_event_summaries': 'billing.meters.listEventSummaries',
  'customers.list_payment_methods': 'customers.listPaymentMethods',
  'v2.core.event_destinations.delete': 'v2.core.eventDestinations.del',
  'v2.core.event_destinations.roll_secret': 'v2.core.eventDestinations.rollSecret',
}

let names: readonly string[] | undefined

/**
 * Every operation name the simulator answers: the catalogue's operations and its own.
 *
 * @example
 * operationNames().includes('customers.create') // true
 */
export function operationNames(): readonly string[] {
  names ??= [...operations().map((op) => op.name), ...OWN_OPERATIONS]
  return names
}

/**
 * How a user's pattern is read: a limit-table glob (`*` matches any run of characters) or a fault
 * target (a prefix of the operation name).
 */
export type PatternKind = 'glob' | 'prefix'

/**
 * Whether `pattern` matches `name`.
 *
 * @example
 * matchesOperation('files.*', 'files.create', 'glob')            // true
 * matchesOperation('v2.billing.meterEvents', 'v2.billing.meterEvents.create', 'prefix') // true
 */
export function matchesOperation(pattern: string, name: string, kind: PatternKind): boolean {
  if (kind === 'prefix') return name.startsWith(pattern)
  if (!pattern.includes('*')) return name === pattern
  const parts = pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
  return new RegExp(`^${parts.join('.*')}$`).test(name)
}

const camel = (segment: string) => segment.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())

/** Former spellings: a known former name, or snake_case segments in camelCase (also under `v2.`). */
function candidates(pattern: string): string[] {
  const known = FORMER_NAMES[pattern]
  if (known !== undefined) return [known]
  const out: string[] = []
  for (const [former, now] of Object.entries(FORMER_NAMES)) {
    // A glob or prefix over a former resource: `billing.meter_events.*` -> `v2.billing.meterEvents.*`.
    const stem = former.slice(0, former.lastIndexOf('.') + 1)
    const newStem = now.slice(0, now.lastIndexOf('.') + 1)
    if (stem.length > 0 && pattern.startsWith(stem) && former.slice(stem.length) === now.slice(newStem.length))
      out.push(newStem + camel(pattern.slice(stem.length)))
  }
  const camelled = pattern.split('.').map(camel).join('.')
  out.push(camelled)
  if (!camelled.startsWith('v2.')) out.push(`v2.${camelled}`)
  return [...new Set(out)].filter((c) => c !== pattern)
}

/**
 * The refusal of a pattern that matches no operation the simulator answers, naming the catalogue's
 * name when the pattern looks like a former one; `undefined` when it matches one.
 *
 * @example
 * unknownOperation('customers.*', 'glob')        // undefined
 * unknownOperation('tax_rates.*', 'glob')        // "unknown operation 'tax_rates.*'; did you mean 'taxRates.*'?"
 * unknownOperation('billing.meter_events', 'prefix') // "unknown operation 'billing.meter_events'; did you mean 'billing.meterEvents' or 'v2.billing.meterEvents'?"
 */
export function unknownOperation(pattern: string, kind: PatternKind): string | undefined {
  const all = operationNames()
  const matches = (p: string) => all.some((name) => matchesOperation(p, name, kind))
  if (matches(pattern)) return undefined
  const suggestions = candidates(pattern).filter(matches)
  const hint =
    suggestions.length > 0
      ? `; did you mean ${suggestions.map((s) => `'${s}'`).join(' or ')}?`
      : ` (no operation matches; names are the official client's, e.g. 'customers.create', 'v2.billing.meterEvents.create')`
  return `unknown operation '${pattern}'${hint}`
}
