import { resourceData } from '#catalogue/index.js'
import type { Simulator } from '#simulator/index.js'
import { refuseArgument } from '../refuse-argument.js'

/** The fields of an object that say what state it is in (only those it has). */
export type ObjectState = Readonly<Record<string, string | number | boolean | null>>

/** Fields that carry an object's state across the provider's resources. */
const STATE_FIELDS = [
  'object',
  'status',
  'payment_status',
  'paid',
  'refunded',
  'amount_refunded',
  'cancel_at_period_end',
  'attempt_count',
  'charges_enabled',
  'details_submitted',
] as const

/**
 * The state fields of an object as an event, an API read or the provider's store has it:
 * its id, `object`, `status`, `payment_status` and the like; undefined when it is no object.
 *
 * @example
 * objectState({ id: 'cs_1', object: 'checkout.session', status: 'complete', payment_status: 'paid', url: null })
 * // { id: 'cs_1', object: 'checkout.session', status: 'complete', payment_status: 'paid' }
 */
export function objectState(value: unknown): ObjectState | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const o = value as Record<string, unknown>
  if (typeof o.id !== 'string') return undefined
  const out: Record<string, string | number | boolean | null> = { id: o.id }
  for (const f of STATE_FIELDS) {
    const v = o[f]
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v === null) out[f] = v
  }
  return out
}

/**
 * What a verdict adds when a rule's test of a state (`when`, `holds`) read fields no object's state
 * carries (an amount, a date): they read as undefined, so the test judged every object alike.
 *
 * @example
 * absentFieldsHint((s) => Number(s.amount_paid) > 0, { id: 'in_1', status: 'paid' })
 * // "; the rule's test read amount_paid, which an object's state does not carry (...)"
 */
export function absentFieldsHint(test: (state: ObjectState) => unknown, state: ObjectState): string {
  const carried = new Set<string>(['id', ...STATE_FIELDS])
  const absent = new Set<string>()
  const probe = new Proxy(state, {
    get(target, key, receiver) {
      if (typeof key === 'string' && !carried.has(key) && !(key in target)) absent.add(key)
      return Reflect.get(target, key, receiver)
    },
  })
  try {
    test(probe)
  } catch {
    // A test that throws on the probe says nothing about the fields it read before.
  }
  if (absent.size === 0) return ''
  return `; the rule's test read ${[...absent].join(', ')}, which an object's state does not carry (only the fields that say what state it is in: ${STATE_FIELDS.join(', ')}), so it read undefined`
}

let byPrefix: ReadonlyMap<string, string> | undefined

/**
 * The provider's true state of the object an id names (by its id prefix: `cs_`, `sub_`, `in_`,
 * `cus_`, ...), in the platform account's test mode, else in one of its connected accounts' (a
 * connected account itself, `acct_`, is the object of its own scope); undefined for an id of no
 * stored object.
 *
 * @example
 * providerState(sim, 'cs_test_a1') // { id: 'cs_test_a1', object: 'checkout.session', status: 'complete', ... }
 */
export function providerState(sim: Simulator, id: string): ObjectState | undefined {
  refuseArgument('providerState', 'sim', sim, 'simulator')
  if (typeof id !== 'string') refuseArgument('providerState', 'id', id, 'string')
  byPrefix ??= new Map(Object.entries(resourceData().idPrefixes).map(([resource, prefix]) => [prefix, resource]))
  const resource = byPrefix.get(id.slice(0, id.indexOf('_')))
  if (resource === undefined) return undefined
  const platform = sim.platform.id
  const inScope = (account: string) => {
    try {
      return objectState(sim.service.engine.resource(resource).get({ account, mode: 'test' }, id))
    } catch {
      return undefined
    }
  }
  if (resource === 'account')
    return id === platform || sim.service.accounts.get(id)?.platform === platform ? inScope(id) : undefined
  const own = inScope(platform)
  if (own !== undefined) return own
  for (const a of sim.service.accounts.list()) {
    if (a.platform !== platform) continue
    const found = inScope(a.id)
    if (found !== undefined) return found
  }
  return undefined
}
