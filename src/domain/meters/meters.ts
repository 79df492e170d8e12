import { DEFAULT_VALUE_PAYLOAD_KEY } from '#catalogue/rules.js'
import { fromPlain, toPlain } from '#kernel/plain.js'
import type { Kernel } from '../kernel.js'
import { type Scope, scopeKey } from '../mode.js'
import { invalidRequest, resourceMissing } from '../service-error.js'
import { defaultCustomerKey, type Meter, type MeterFormula, meterJson } from './meter.js'

/** What creating a meter takes; keys default as the provider's do. */
export interface CreateMeterInput {
  readonly eventName: string
  readonly displayName: string
  readonly formula: MeterFormula
  readonly customerKey?: string
  readonly valueKey?: string
  readonly eventTimeWindow?: 'day' | 'hour'
}

/**
 * The billing meters of every account and mode. An event name belongs to at most one meter of a
 * scope, so an event finds its meter with one lookup.
 *
 * @example
 * const m = meters.create({ account, mode: 'test' }, { eventName: 'api_call', displayName: 'API calls', formula: 'sum' })
 * meters.byEventName({ account, mode: 'test' }, 'api_call') === m // true
 */
export interface Meters {
  create(scope: Scope, input: CreateMeterInput): Meter
  /** The meter with this id in the scope, or a 404 `resource_missing`. */
  retrieve(scope: Scope, id: string): Meter
  find(scope: Scope, id: string): Meter | undefined
  byEventName(scope: Scope, eventName: string): Meter | undefined
  /** Meters of the scope, newest first. */
  list(scope: Scope): Meter[]
  /** Every meter of every scope, in creation order. */
  all(): readonly Meter[]
  update(scope: Scope, id: string, changes: { displayName?: string }): Meter
  deactivate(scope: Scope, id: string): Meter
  reactivate(scope: Scope, id: string): Meter
}

interface ScopeMeters {
  readonly byId: Map<string, Meter>
  readonly byEventName: Map<string, Meter>
  readonly ordered: Meter[]
}

export function createMeters(kernel: Kernel): Meters {
  const scopes = new Map<string, ScopeMeters>()
  const everything: Meter[] = []

  kernel.state.register('meters', {
    save: () => toPlain(everything),
    load(data) {
      scopes.clear()
      everything.length = 0
      for (const meter of fromPlain<Meter[]>(data)) {
        const b = bucket(meter)
        b.byId.set(meter.id, meter)
        b.byEventName.set(meter.eventName, meter)
        b.ordered.push(meter)
        everything.push(meter)
      }
    },
  })

  function bucket(scope: Scope): ScopeMeters {
    const key = scopeKey(scope)
    let b = scopes.get(key)
    if (b === undefined) {
      b = { byId: new Map(), byEventName: new Map(), ordered: [] }
      scopes.set(key, b)
    }
    return b
  }

  function find(scope: Scope, id: string): Meter | undefined {
    return scopes.get(scopeKey(scope))?.byId.get(id)
  }

  function retrieve(scope: Scope, id: string): Meter {
    const meter = find(scope, id)
    if (meter === undefined) throw resourceMissing('billing meter', id)
    return meter
  }

  function record(kind: 'meter.updated' | 'meter.deactivated' | 'meter.reactivated', meter: Meter): void {
    kernel.trace.append(kind, { id: meter.id, account: meter.account, mode: meter.mode, status: meter.status })
  }

  const meters: Meters = {
    create(scope, input) {
      const b = bucket(scope)
      const existing = b.byEventName.get(input.eventName)
      if (existing !== undefined) {
        throw invalidRequest(
          `A meter with event_name '${input.eventName}' already exists (${existing.id}); event names are unique per account.`,
          { code: 'resource_already_exists', param: 'event_name' },
        )
      }
      const now = kernel.clock.now
      const meter: Meter = {
        id: kernel.ids.next(`mtr_${scope.mode}`, 24),
        account: scope.account,
        mode: scope.mode,
        eventName: input.eventName,
        displayName: input.displayName,
        customerKey: input.customerKey ?? defaultCustomerKey(kernel.prefix),
        valueKey: input.valueKey ?? DEFAULT_VALUE_PAYLOAD_KEY,
        formula: input.formula,
        eventTimeWindow: input.eventTimeWindow ?? null,
        status: 'active',
        created: now,
        updated: now,
        deactivatedAt: null,
      }
      b.byId.set(meter.id, meter)
      b.byEventName.set(meter.eventName, meter)
      b.ordered.push(meter)
      everything.push(meter)
      kernel.trace.append('meter.created', { ...meterJson(meter), account: scope.account })
      return meter
    },
    retrieve,
    find,
    byEventName: (scope, eventName) => scopes.get(scopeKey(scope))?.byEventName.get(eventName),
    list: (scope) => [...(scopes.get(scopeKey(scope))?.ordered ?? [])].reverse(),
    all: () => everything,
    update(scope, id, changes) {
      const meter = retrieve(scope, id)
      if (changes.displayName !== undefined) meter.displayName = changes.displayName
      meter.updated = kernel.clock.now
      record('meter.updated', meter)
      return meter
    },
    deactivate(scope, id) {
      const meter = retrieve(scope, id)
      if (meter.status === 'inactive') return meter
      meter.status = 'inactive'
      meter.deactivatedAt = kernel.clock.now
      meter.updated = kernel.clock.now
      record('meter.deactivated', meter)
      return meter
    },
    reactivate(scope, id) {
      const meter = retrieve(scope, id)
      if (meter.status === 'active') return meter
      meter.status = 'active'
      meter.deactivatedAt = null
      meter.updated = kernel.clock.now
      record('meter.reactivated', meter)
      return meter
    },
  }
  return meters
}
