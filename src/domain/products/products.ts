import type { EventStore } from '../events/event-store.js'
import type { Kernel } from '../kernel.js'
import type { Scope } from '../mode.js'
import { createScopedStore } from '../scoped-store/scoped-store.js'
import { invalidRequest, resourceMissing } from '../service-error.js'
import { emitSnapshot, type Origin } from '../v1-events/emit.js'
import { type Product, productJson } from './product.js'

export interface ProductInput {
  id?: string
  name?: string
  active?: boolean
  description?: string | null
  metadata?: Record<string, string> | null
  images?: string[]
  shippable?: boolean
  statementDescriptor?: string
  unitLabel?: string | null
  url?: string | null
}

/**
 * Products per account and mode, with `product.created` and `product.updated` snapshot events.
 * A caller-chosen `id` must be unique in its scope.
 *
 * @example
 * const p = products.create(scope, { name: 'Gold plan' }, origin)
 * products.list(scope, { active: true })
 */
export interface Products {
  create(scope: Scope, input: ProductInput & { name: string }, origin: Origin): Product
  get(scope: Scope, id: string): Product | undefined
  require(scope: Scope, id: string): Product
  update(scope: Scope, id: string, input: ProductInput, origin: Origin): Product
  list(scope: Scope, filter?: { active?: boolean }): Product[]
}

export function createProducts(kernel: Kernel, events: EventStore): Products {
  const store = createScopedStore<Product>()

  function require(scope: Scope, id: string): Product {
    const p = store.get(scope, id)
    if (p === undefined) throw resourceMissing('product', id)
    return p
  }

  return {
    create(scope, input, origin) {
      if (input.id !== undefined && store.get(scope, input.id) !== undefined) {
        throw invalidRequest(`Product already exists: '${input.id}'`, { code: 'resource_already_exists', param: 'id' })
      }
      const now = kernel.clock.now
      const p: Product = {
        id: input.id ?? kernel.ids.next('prod', 14),
        account: scope.account,
        mode: scope.mode,
        created: now,
        updated: now,
        name: input.name,
        active: input.active ?? true,
        description: input.description ?? null,
        metadata: Object.fromEntries(Object.entries(input.metadata ?? {}).filter(([, v]) => v !== '')),
        images: [...(input.images ?? [])],
        shippable: input.shippable ?? null,
        statementDescriptor: input.statementDescriptor ?? null,
        unitLabel: input.unitLabel ?? null,
        url: input.url ?? null,
      }
      store.add(scope, p)
      kernel.trace.append('product.created', { id: p.id, account: scope.account, mode: scope.mode })
      emitSnapshot(events, 'product.created', scope, productJson(p), origin)
      return p
    },
    get: (scope, id) => store.get(scope, id),
    require,
    update(scope, id, input, origin) {
      const p = require(scope, id)
      const before = productJson(p)
      if (input.name !== undefined) p.name = input.name
      if (input.active !== undefined) p.active = input.active
      if (input.description !== undefined) p.description = input.description
      if (input.images !== undefined) p.images = [...input.images]
      if (input.shippable !== undefined) p.shippable = input.shippable
      if (input.statementDescriptor !== undefined) p.statementDescriptor = input.statementDescriptor
      if (input.unitLabel !== undefined) p.unitLabel = input.unitLabel
      if (input.url !== undefined) p.url = input.url
      if (input.metadata === null) p.metadata = {}
      else if (input.metadata !== undefined) {
        for (const [k, v] of Object.entries(input.metadata)) {
          if (v === '') delete p.metadata[k]
          else p.metadata[k] = v
        }
      }
      p.updated = kernel.clock.now
      const after = productJson(p)
      const previous: Record<string, unknown> = {}
      for (const k of Object.keys(after)) {
        if (k !== 'updated' && JSON.stringify(after[k]) !== JSON.stringify(before[k])) previous[k] = before[k]
      }
      if (Object.keys(previous).length > 0) emitSnapshot(events, 'product.updated', scope, after, origin, previous)
      return p
    },
    list: (scope, filter = {}) => store.list(scope).filter((p) => filter.active === undefined || p.active === filter.active),
  }
}
