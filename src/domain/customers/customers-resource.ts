import { deleteCustomerDiscount } from '../billing/catalog/discount-removal.js'
import { checkEmail } from '../engine/checks.js'
import type { ResourceDeclaration } from '../engine/declaration.js'
import type { Json } from '../engine/list.js'
import type { ResourcePorts } from '../resource-ports.js'
import { tableError } from '../service-error.js'
import { customerTax } from '../tax/customer-tax.js'
import { cashBalanceOf } from './cash-balance-resource.js'
import { attachSource, detachSource, SOURCE_STORE, sourceFrom, sourcesOf } from './customer-source-book.js'
import { verifySource } from './customer-sources-resource.js'

type Params = Readonly<Record<string, unknown>>

function defaultPm(params: Params): unknown {
  const s = params.invoice_settings
  return typeof s === 'object' && s !== null ? (s as Params).default_payment_method : undefined
}

/** The params without `payment_method` (attached after the create); the same object when it has none. */
function withoutPaymentMethod(params: Params): Params {
  if (!Object.hasOwn(params, 'payment_method')) return params
  const { payment_method: _, ...rest } = params
  return rest
}

/** How many objects an included sub-list shows (the provider's first page). */
const INCLUDED_PAGE = 10

/** A customer's included sub-list (`/v1/customers/cus_1/tax_ids`): its first page, newest first. */
function includedList(customer: Json, noun: string, items: readonly Json[]): Record<string, unknown> {
  return {
    object: 'list',
    data: items.slice(0, INCLUDED_PAGE),
    has_more: items.length > INCLUDED_PAGE,
    total_count: items.length,
    url: `/v1/customers/${customer.id}/${noun}`,
  }
}

/** Subscriptions that still bill (the customer's "current subscriptions"). */
const isCurrent = (sub: Json) => sub.status !== 'canceled' && sub.status !== 'incomplete_expired'

/**
 * The customer's credit by currency, as `invoice_credit_balance` shows it: positive is credit,
 * the opposite sign of its balance transactions (negative there is credit).
 */
function creditByCurrency(customer: Json, transactions: readonly Json[]): Record<string, number> {
  const out: Record<string, number> = {}
  for (const t of transactions) {
    if (t.customer !== customer.id || typeof t.currency !== 'string') continue
    out[t.currency] = (out[t.currency] ?? 0) - Number(t.amount ?? 0)
  }
  // A balance given at create (no transaction records it) is in the customer's currency.
  const balance = Number(customer.balance ?? 0)
  if (Object.keys(out).length === 0 && balance !== 0 && typeof customer.currency === 'string') out[customer.currency] = -balance
  return out
}

function missingPm(pm: string) {
  return tableError('payment_method_not_attached', { id: pm }, { param: 'invoice_settings[default_payment_method]' })
}

/**
 * Customers: deleted ones stay retrievable as `{ id, object, deleted: true }`. Create takes a
 * `payment_method` (or test token) to attach; `invoice_settings[default_payment_method]` must be
 * one of the customer's payment methods; `email` must look like one. Deleting a customer cancels
 * its subscriptions first and stops automatic collection of its unpaid invoices, as the provider does.
 */
export const customers: ResourceDeclaration<ResourcePorts> = {
  type: 'Customer',
  object: 'customer',
  idPrefix: 'cus',
  idLength: 14,
  deleted: 'stub',
  defaults: ({ id }) => ({
    address: null,
    currency: null,
    delinquent: false,
    discount: null,
    invoice_prefix: id.slice(4, 12).toUpperCase(),
    name: null,
    next_invoice_sequence: 1,
    phone: null,
    preferred_locales: [],
    tax_exempt: 'none',
    test_clock: null,
  }),
  // A `tax[...]` param is kept as the provider shows `tax` (with a location from the address), and
  // answered only when `expand[]` names it, like the lists below.
  withheld: ['tax'],
  derive: (customer) => (customer.tax === undefined ? {} : { tax: customerTax(customer) }),
  // Answered only when `expand[]` names them, from the objects that belong to the customer.
  includes: {
    tax: customerTax,
    subscriptions: (customer, { engine, scope }) =>
      includedList(
        customer,
        'subscriptions',
        engine
          .resource('subscription')
          .list(scope)
          .filter((s) => s.customer === customer.id && isCurrent(s)),
      ),
    tax_ids: (customer, { engine, scope }) =>
      includedList(
        customer,
        'tax_ids',
        engine
          .resource('tax_id')
          .list(scope)
          .filter((t) => t.customer === customer.id),
      ),
    sources: (customer, { engine, scope }) => includedList(customer, 'sources', sourcesOf(engine, scope, String(customer.id))),
    invoice_credit_balance: (customer, { engine, scope }) =>
      creditByCurrency(customer, engine.resource('customer_balance_transaction').list(scope)),
    // A customer without any cash balance movement (`available` still null) answers null.
    cash_balance: (customer, { engine, scope }) => {
      const balance = cashBalanceOf(engine, scope, customer)
      return balance.available === null ? null : balance
    },
  },
  behaviours: {
    'customers.retrieveCashBalance'(call, _next, { engine }) {
      return cashBalanceOf(engine, call.scope, engine.resource('customer').require(call.scope, call.path.id ?? ''))
    },
    'customers.deleteDiscount': deleteCustomerDiscount,
    'customers.verifySource': verifySource,
    'customers.create'(call, next, { engine, ports }) {
      const pm = call.params.payment_method
      const params = withoutPaymentMethod(call.params)
      checkEmail(params.email, 'email')
      if (typeof params.test_clock === 'string') {
        engine.resource('test_helpers.test_clock').requireParam(call.scope, params.test_clock, 'test_clock')
      }
      const dpm = defaultPm(params)
      if (typeof pm === 'string') ports.paymentMethods.checkAttachable(call.scope, pm, '', 'payment_method')
      if (typeof dpm === 'string' && dpm !== '' && dpm !== pm) throw missingPm(dpm)
      const resolved = typeof pm === 'string' ? ports.paymentMethods.resolve(call.scope, pm, 'payment_method').id : undefined
      const settings =
        dpm === pm && resolved !== undefined
          ? { ...(params.invoice_settings as Params), default_payment_method: resolved }
          : params.invoice_settings
      const clock = typeof params.test_clock === 'string' ? ports.billing.clockTimeline(call.scope, params.test_clock) : undefined
      // A `source` (a card token) becomes the new customer's card and its `default_source`.
      const source = params.source === undefined ? undefined : sourceFrom(engine, call.scope, params.source, 'source')()
      const created = next(
        settings === params.invoice_settings ? params : Object.assign({}, params, { invoice_settings: settings }),
        {
          ...(clock === undefined ? {} : { created: Math.floor(clock.now() / 1000), test_clock: params.test_clock }),
          ...(source === undefined ? {} : { default_source: source.object.id }),
        },
      ) as { id: string }
      if (source !== undefined) attachSource(engine, call.scope, created.id, source, call.origin)
      if (resolved !== undefined) ports.paymentMethods.attach(call.scope, resolved, created.id, call.origin)
      return created
    },
    'customers.update'(call, next, { engine, ports }) {
      checkEmail(call.params.email, 'email')
      const dpm = defaultPm(call.params)
      if (typeof dpm === 'string' && dpm !== '') {
        const found = ports.paymentMethods.get(call.scope, dpm)
        if (found === undefined || found.customer !== call.path.id) throw missingPm(dpm)
      }
      const chosen = call.params.default_source
      if (
        typeof chosen === 'string' &&
        chosen !== '' &&
        engine.resource(SOURCE_STORE).get(call.scope, chosen)?.customer !== call.path.id
      ) {
        throw tableError('resource_missing', { kind: 'source', id: chosen }, { param: 'default_source', status: 400 })
      }
      if (call.params.source === undefined) return next()
      // A new `source` replaces the default one: made, made the default, the old default deleted.
      const customer = engine.resource('customer').require(call.scope, call.path.id ?? '')
      const made = sourceFrom(engine, call.scope, call.params.source, 'source')()
      const old = sourcesOf(engine, call.scope, String(customer.id)).find((s) => s.id === customer.default_source)
      const source = attachSource(engine, call.scope, String(customer.id), made, call.origin)
      const updated = next({ ...call.params, default_source: source.id }) as Json
      if (old !== undefined) detachSource(engine, call.scope, updated, old, call.origin)
      return engine.resource('customer').require(call.scope, String(customer.id))
    },
    'customers.del'(call, next, { engine, ports }) {
      // "Also immediately cancels any active subscriptions on the customer": a deleted customer
      // is not billed again (its subscriptions would renew and charge it every period), and the
      // cancellation stops automatic collection of its unpaid invoices (no more retries).
      const id = engine.resource('customer').require(call.scope, call.path.id ?? '').id
      for (const sub of engine.resource('subscription').list(call.scope)) {
        if (sub.customer === id && sub.status !== 'canceled') ports.billing.cancelNow(call.scope, sub.id, call.origin)
      }
      ports.billing.stopCollection(call.scope, id, call.origin)
      return next()
    },
  },
}
