import type { EventStore } from '../events/event-store.js'
import type { Kernel } from '../kernel.js'
import type { Scope } from '../mode.js'
import type { PaymentMethods } from '../payment-intents/payment-methods.js'
import { createScopedStore } from '../scoped-store/scoped-store.js'
import { invalidRequest, resourceMissing } from '../service-error.js'
import { emitSnapshot, type Origin } from '../v1-events/emit.js'
import { type Customer, customerJson } from './customer.js'

/** Fields a create or update may set; `null` clears a field on update, `metadata: null` clears all. */
export interface CustomerInput {
  email?: string | null
  name?: string | null
  description?: string | null
  phone?: string | null
  /** Keys with `''` are removed on update, as the provider does. */
  metadata?: Record<string, string> | null
  /** On create: a payment method (or test token) to attach. */
  paymentMethod?: string
  /** `invoice_settings.default_payment_method`. */
  defaultPaymentMethod?: string | null
}

/**
 * Customers per account and mode, with the provider's snapshot events (`customer.created`,
 * `customer.updated` with `previous_attributes`, `customer.deleted`). Every check runs before any
 * change, so a refused call changes nothing.
 *
 * @example
 * const c = customers.create(scope, { email: 'jenny@example.com' }, origin)
 * customers.update(scope, c.id, { name: 'Jenny' }, origin)
 * customers.delete(scope, c.id, origin) // { id, object: 'customer', deleted: true }
 */
export interface Customers {
  create(scope: Scope, input: CustomerInput, origin: Origin): Customer
  /** A customer of the scope, deleted ones included. */
  get(scope: Scope, id: string): Customer | undefined
  /** A live (not deleted) customer, else 404 `resource_missing`. */
  require(scope: Scope, id: string): Customer
  /** A live customer named by a request parameter, else 400 `resource_missing` on that param. */
  requireParam(scope: Scope, id: string, param: string): Customer
  update(scope: Scope, id: string, input: CustomerInput, origin: Origin): Customer
  delete(scope: Scope, id: string, origin: Origin): Customer
  /** Live customers, newest first, optionally with one email. */
  list(scope: Scope, filter?: { email?: string }): Customer[]
}

export function createCustomers(kernel: Kernel, events: EventStore, paymentMethods: PaymentMethods): Customers {
  const store = createScopedStore<Customer>()

  function require(scope: Scope, id: string): Customer {
    const c = store.get(scope, id)
    if (c === undefined || c.deleted) throw resourceMissing('customer', id)
    return c
  }

  function checkDefaultPm(scope: Scope, c: Customer | undefined, pm: string | null | undefined, fresh?: string): void {
    if (pm === undefined || pm === null || pm === fresh) return
    const found = paymentMethods.get(scope, pm)
    if (found === undefined || c === undefined || found.customer !== c.id) {
      throw invalidRequest(`No such PaymentMethod: '${pm}' attached to this customer.`, {
        code: 'resource_missing',
        param: 'invoice_settings[default_payment_method]',
      })
    }
  }

  return {
    create(scope, input, origin) {
      if (input.paymentMethod !== undefined) paymentMethods.checkAttachable(scope, input.paymentMethod, '', 'payment_method')
      if (input.defaultPaymentMethod != null && input.defaultPaymentMethod !== input.paymentMethod) {
        checkDefaultPm(scope, undefined, input.defaultPaymentMethod)
      }
      const id = kernel.ids.next('cus', 14)
      const c: Customer = {
        id,
        account: scope.account,
        mode: scope.mode,
        created: kernel.clock.now,
        invoicePrefix: id.slice(4, 12).toUpperCase(),
        email: input.email ?? null,
        name: input.name ?? null,
        description: input.description ?? null,
        phone: input.phone ?? null,
        metadata: Object.fromEntries(Object.entries(input.metadata ?? {}).filter(([, v]) => v !== '')),
        defaultPaymentMethod: null,
        deleted: false,
      }
      store.add(scope, c)
      let pmId: string | undefined
      if (input.paymentMethod !== undefined) pmId = paymentMethods.resolve(scope, input.paymentMethod, 'payment_method').id
      if (input.defaultPaymentMethod != null) {
        c.defaultPaymentMethod = input.defaultPaymentMethod === input.paymentMethod ? (pmId ?? null) : input.defaultPaymentMethod
      }
      emitSnapshot(events, 'customer.created', scope, customerJson(c), origin)
      if (pmId !== undefined) paymentMethods.attach(scope, pmId, c.id, origin)
      kernel.trace.append('customer.created', { id, account: scope.account, mode: scope.mode })
      return c
    },
    get: (scope, id) => store.get(scope, id),
    require,
    requireParam(scope, id, param) {
      const c = store.get(scope, id)
      if (c === undefined || c.deleted) {
        throw invalidRequest(`No such customer: '${id}'`, { code: 'resource_missing', param })
      }
      return c
    },
    update(scope, id, input, origin) {
      const c = require(scope, id)
      checkDefaultPm(scope, c, input.defaultPaymentMethod)
      const before = customerJson(c)
      if (input.email !== undefined) c.email = input.email
      if (input.name !== undefined) c.name = input.name
      if (input.description !== undefined) c.description = input.description
      if (input.phone !== undefined) c.phone = input.phone
      if (input.metadata === null) c.metadata = {}
      else if (input.metadata !== undefined) {
        for (const [k, v] of Object.entries(input.metadata)) {
          if (v === '') delete c.metadata[k]
          else c.metadata[k] = v
        }
      }
      if (input.defaultPaymentMethod !== undefined) c.defaultPaymentMethod = input.defaultPaymentMethod
      const after = customerJson(c)
      const previous: Record<string, unknown> = {}
      for (const k of Object.keys(after)) {
        if (JSON.stringify(after[k]) !== JSON.stringify(before[k])) previous[k] = before[k]
      }
      if (Object.keys(previous).length > 0) emitSnapshot(events, 'customer.updated', scope, after, origin, previous)
      return c
    },
    delete(scope, id, origin) {
      const c = require(scope, id)
      const last = customerJson(c)
      c.deleted = true
      emitSnapshot(events, 'customer.deleted', scope, last, origin)
      kernel.trace.append('customer.deleted', { id, account: scope.account, mode: scope.mode })
      return c
    },
    list: (scope, filter = {}) =>
      store.list(scope).filter((c) => !c.deleted && (filter.email === undefined || c.email === filter.email)),
  }
}
