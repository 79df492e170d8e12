import { checkEmail } from '../engine/checks.js'
import type { ResourceDeclaration } from '../engine/declaration.js'
import { tableError } from '../service-error.js'
import type { ResourcePorts } from './ports.js'

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
  behaviours: {
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
      const created = next(
        settings === params.invoice_settings ? params : Object.assign({}, params, { invoice_settings: settings }),
        clock === undefined ? undefined : { created: Math.floor(clock.now() / 1000), test_clock: params.test_clock },
      ) as { id: string }
      if (resolved !== undefined) ports.paymentMethods.attach(call.scope, resolved, created.id, call.origin)
      return created
    },
    'customers.update'(call, next, { ports }) {
      checkEmail(call.params.email, 'email')
      const dpm = defaultPm(call.params)
      if (typeof dpm === 'string' && dpm !== '') {
        const found = ports.paymentMethods.get(call.scope, dpm)
        if (found === undefined || found.customer !== call.path.id) throw missingPm(dpm)
      }
      return next()
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
