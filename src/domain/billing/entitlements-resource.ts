import type { ResourceDeclaration } from '../engine/declaration.js'
import { type Json, pageV1 } from '../engine/list.js'
import { invalidParam, missingParam } from '../engine/param-checks.js'
import type { ResourcePorts } from '../resource-ports.js'
import { resourceMissing } from '../service-error.js'

/**
 * Entitlement features: a capability a product gives (`lookup_key` unique in the account, the
 * provider's rule); `active: false` archives one (`archived=true` lists those).
 *
 * @example
 * await stripe.entitlements.features.create({ name: 'SSO', lookup_key: 'sso' })
 */
export const entitlementFeatures: ResourceDeclaration<ResourcePorts> = {
  type: 'Entitlements.Feature',
  object: 'entitlements.feature',
  idPrefix: 'feat',
  defaults: () => ({ active: true }),
  behaviours: {
    'entitlements.features.create'(call, next, { engine }) {
      const { name, lookup_key: key } = call.params
      if (typeof name !== 'string' || name === '') throw missingParam('name')
      if (typeof key !== 'string' || key === '') throw missingParam('lookup_key')
      if (
        engine
          .resource('entitlements.feature')
          .list(call.scope)
          .some((f) => f.lookup_key === key)
      ) {
        throw invalidParam('lookup_key', `a feature with lookup_key '${key}' already exists`)
      }
      return next()
    },
    'entitlements.features.list'(call, next, { engine }) {
      const { archived, ...params } = call.params
      if (archived === undefined) return next()
      const want = archived === true || archived === 'true'
      const items = engine
        .resource('entitlements.feature')
        .list(call.scope)
        .filter((f) => (f.active === false) === want && (params.lookup_key === undefined || f.lookup_key === params.lookup_key))
      return pageV1(items, params, '/v1/entitlements/features', 'entitlements.feature')
    },
  },
}

/** A product's feature as answered (the product it belongs to is kept, not shown: the provider's object has no such field). */
const shown = (pf: Json): Json => {
  const { product: _product, ...rest } = pf
  return rest as Json
}

/**
 * Features attached to products (`products.createFeature`, `listFeatures`, `retrieveFeature`,
 * `deleteFeature`): each feature once per product; the customers subscribed to the product gain or
 * lose its entitlement at once.
 *
 * @example
 * await stripe.products.createFeature('prod_…', { entitlement_feature: 'feat_…' })
 */
export const productFeatures: ResourceDeclaration<ResourcePorts> = {
  type: 'ProductFeature',
  object: 'product_feature',
  idPrefix: 'prodft',
  behaviours: {
    'products.createFeature'(call, _next, { engine, ports }) {
      const product = engine.resource('product').require(call.scope, call.path.id ?? '')
      const featureId = call.params.entitlement_feature
      if (typeof featureId !== 'string') throw missingParam('entitlement_feature')
      const feature = engine.resource('entitlements.feature').requireParam(call.scope, featureId, 'entitlement_feature')
      const r = engine.resource('product_feature')
      const attached = r.list(call.scope).filter((pf) => pf.product === product.id)
      if (attached.some((pf) => (pf.entitlement_feature as Json).id === feature.id)) {
        throw invalidParam('entitlement_feature', `the feature ${feature.id} is already attached to ${product.id}`)
      }
      const made = r.create(call.scope, {}, call.origin, { entitlement_feature: feature, product: product.id })
      for (const c of ports.billing.entitlements.customersOf(call.scope, product.id)) {
        ports.billing.entitlements.sync(call.scope, c, call.origin)
      }
      return shown(made)
    },
    'products.listFeatures'(call, _next, { engine }) {
      const product = engine.resource('product').require(call.scope, call.path.id ?? '')
      const items = engine
        .resource('product_feature')
        .list(call.scope)
        .filter((pf) => pf.product === product.id)
        .map(shown)
      return pageV1(items, call.params, `/v1/products/${product.id}/features`, 'product_feature')
    },
    'products.retrieveFeature'(call, _next, { engine }) {
      const product = engine.resource('product').require(call.scope, call.path.productId ?? '')
      const pf = engine.resource('product_feature').require(call.scope, call.path.id ?? '')
      if (pf.product !== product.id) throw resourceMissing('product_feature', pf.id, 'id')
      return shown(pf)
    },
    'products.deleteFeature'(call, _next, { engine, ports }) {
      const product = engine.resource('product').require(call.scope, call.path.productId ?? '')
      const r = engine.resource('product_feature')
      const pf = r.require(call.scope, call.path.id ?? '')
      if (pf.product !== product.id) throw resourceMissing('product_feature', pf.id, 'id')
      const deleted = r.delete(call.scope, pf.id, call.origin)
      for (const c of ports.billing.entitlements.customersOf(call.scope, product.id)) {
        ports.billing.entitlements.sync(call.scope, c, call.origin)
      }
      return deleted
    },
  },
}

/**
 * A customer's active entitlements, following its subscriptions (src/domain/billing/entitlements.ts):
 * listed by `customer` (required, as on the provider) and retrieved by id.
 *
 * @example
 * await stripe.entitlements.activeEntitlements.list({ customer: 'cus_…' })
 */
export const activeEntitlements: ResourceDeclaration<ResourcePorts> = {
  type: 'Entitlements.ActiveEntitlement',
  object: 'entitlements.active_entitlement',
  idPrefix: 'ent',
  behaviours: {
    'entitlements.activeEntitlements.list'(call, _next, { engine, ports }) {
      const { customer } = call.params
      if (typeof customer !== 'string') throw missingParam('customer')
      engine.resource('customer').requireParam(call.scope, customer, 'customer')
      const items = ports.billing.entitlements.of(call.scope, customer).reverse()
      return pageV1(items, call.params, '/v1/entitlements/active_entitlements', 'entitlements.active_entitlement')
    },
    'entitlements.activeEntitlements.retrieve'(call, _next, { engine, ports }) {
      const e = engine.resource('entitlements.active_entitlement').require(call.scope, call.path.id ?? '')
      return ports.billing.entitlements.answer(e)
    },
  },
}
