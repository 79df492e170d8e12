import type { Mode } from '../mode.js'

/** A customer of one account and mode. `deleted` customers stay retrievable as deletion objects. */
export interface Customer {
  readonly id: string
  readonly account: string
  readonly mode: Mode
  readonly created: number
  readonly invoicePrefix: string
  email: string | null
  name: string | null
  description: string | null
  phone: string | null
  metadata: Record<string, string>
  defaultPaymentMethod: string | null
  deleted: boolean
}

/**
 * The v1 JSON of a customer (the deletion object once deleted).
 *
 * @example
 * customerJson(c) // { id: 'cus_…', object: 'customer', email: 'a@b.c', ... }
 */
export function customerJson(c: Customer): Record<string, unknown> {
  if (c.deleted) return { id: c.id, object: 'customer', deleted: true }
  return {
    id: c.id,
    object: 'customer',
    address: null,
    balance: 0,
    created: Math.floor(c.created / 1000),
    currency: null,
    default_source: null,
    delinquent: false,
    description: c.description,
    discount: null,
    email: c.email,
    invoice_prefix: c.invoicePrefix,
    invoice_settings: {
      custom_fields: null,
      default_payment_method: c.defaultPaymentMethod,
      footer: null,
      rendering_options: null,
    },
    livemode: c.mode === 'live',
    metadata: { ...c.metadata },
    name: c.name,
    next_invoice_sequence: 1,
    phone: c.phone,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: null,
  }
}
