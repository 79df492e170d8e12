import type { Mode } from '../mode.js'

/** A product of one account and mode. */
export interface Product {
  readonly id: string
  readonly account: string
  readonly mode: Mode
  readonly created: number
  updated: number
  name: string
  active: boolean
  description: string | null
  metadata: Record<string, string>
  images: string[]
  shippable: boolean | null
  statementDescriptor: string | null
  unitLabel: string | null
  url: string | null
}

/**
 * The v1 JSON of a product.
 *
 * @example
 * productJson(p) // { id: 'prod_…', object: 'product', name: 'Gold plan', active: true, ... }
 */
export function productJson(p: Product): Record<string, unknown> {
  return {
    id: p.id,
    object: 'product',
    active: p.active,
    created: Math.floor(p.created / 1000),
    default_price: null,
    description: p.description,
    images: [...p.images],
    livemode: p.mode === 'live',
    marketing_features: [],
    metadata: { ...p.metadata },
    name: p.name,
    package_dimensions: null,
    shippable: p.shippable,
    statement_descriptor: p.statementDescriptor,
    tax_code: null,
    tax_details: null,
    type: 'service',
    unit_label: p.unitLabel,
    updated: Math.floor(p.updated / 1000),
    url: p.url,
  }
}
