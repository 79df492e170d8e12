import { z } from 'zod'
import { chargeJson } from '#domain/payment-intents/charge.js'
import { paymentIntentJson } from '#domain/payment-intents/payment-intent.js'
import { paymentMethodJson, testCard } from '#domain/payment-intents/payment-method.js'
import { resourceMissing } from '#domain/service-error.js'
import { v1List, v1ListFields } from '../pagination.js'
import { expand, formBool, formInt, metadata } from '../params.js'
import type { Route } from '../route.js'
import { clearable, defined, email, metadataInput, originOf, requiredInt, scopeOf } from './resource-helpers.js'

const captureMethod = z.enum(['automatic', 'automatic_async', 'manual'])
const futureUsage = z.enum(['on_session', 'off_session'])

const createBody = z.object({
  amount: requiredInt('amount'),
  currency: z.string().min(1),
  customer: z.string().min(1).optional(),
  payment_method: z.string().min(1).optional(),
  confirm: formBool.optional(),
  capture_method: captureMethod.optional(),
  description: z.string().optional(),
  metadata: metadata.optional(),
  receipt_email: email.optional(),
  setup_future_usage: futureUsage.optional(),
  statement_descriptor: z.string().max(22).optional(),
  payment_method_types: z.array(z.literal('card')).optional(),
  automatic_payment_methods: z.object({ enabled: formBool, allow_redirects: z.enum(['always', 'never']).optional() }).optional(),
  off_session: formBool.optional(),
  return_url: z.string().optional(),
  expand,
})

const updateBody = z.object({
  amount: formInt.optional(),
  currency: z.string().min(1).optional(),
  customer: z.string().min(1).optional(),
  payment_method: z.string().min(1).optional(),
  description: clearable.optional(),
  metadata: metadata.optional(),
  receipt_email: z.union([z.literal(''), z.null(), email]).optional(),
  setup_future_usage: z.union([z.literal(''), z.null(), futureUsage]).optional(),
  expand,
})

const confirmBody = z.object({
  payment_method: z.string().min(1).optional(),
  return_url: z.string().optional(),
  off_session: formBool.optional(),
  expand,
})

const captureBody = z.object({ amount_to_capture: formInt.optional(), expand })
const cancelBody = z.object({
  cancellation_reason: z.enum(['duplicate', 'fraudulent', 'requested_by_customer', 'abandoned']).optional(),
  expand,
})

const retrieveQuery = z.object({ client_secret: z.string().optional(), expand })
const listQuery = z.object({ ...v1ListFields, customer: z.string().optional() })
const pmListQuery = z.object({
  ...v1ListFields,
  customer: z.string().min(1).optional(),
  type: z.string().optional(),
  allow_redisplay: z.string().optional(),
})

const attachBody = z.object({ customer: z.string().min(1), expand })
const chargeListQuery = z.object({ ...v1ListFields, customer: z.string().optional(), payment_intent: z.string().optional() })

const id = (p: Readonly<Record<string, string>>) => p.id ?? ''

/** `/v1/payment_intents` (create, retrieve, update, confirm, capture, cancel, list), payment methods and charges. */
export const paymentIntentRoutes: Route[] = [
  {
    method: 'POST',
    path: '/v1/payment_intents',
    operation: 'paymentIntents.create',
    body: createBody,
    handle(ctx) {
      const b = ctx.body as z.infer<typeof createBody>
      const pi = ctx.service.paymentIntents.create(
        scopeOf(ctx),
        {
          amount: b.amount,
          currency: b.currency,
          ...defined({
            customer: b.customer,
            paymentMethod: b.payment_method,
            confirm: b.confirm,
            offSession: b.off_session,
            captureMethod: b.capture_method,
            description: b.description,
            metadata: b.metadata === '' || b.metadata === null ? undefined : b.metadata,
            receiptEmail: b.receipt_email,
            setupFutureUsage: b.setup_future_usage,
            statementDescriptor: b.statement_descriptor,
          }),
        },
        originOf(ctx),
      )
      return paymentIntentJson(pi)
    },
  },
  {
    method: 'GET',
    path: '/v1/payment_intents/:id',
    operation: 'paymentIntents.retrieve',
    object: 'id',
    query: retrieveQuery,
    handle: (ctx) => paymentIntentJson(ctx.service.paymentIntents.require(scopeOf(ctx), id(ctx.params))),
  },
  {
    method: 'POST',
    path: '/v1/payment_intents/:id',
    operation: 'paymentIntents.update',
    object: 'id',
    body: updateBody,
    handle(ctx) {
      const b = ctx.body as z.infer<typeof updateBody>
      const pi = ctx.service.paymentIntents.update(
        scopeOf(ctx),
        id(ctx.params),
        defined({
          amount: b.amount,
          currency: b.currency,
          customer: b.customer,
          paymentMethod: b.payment_method,
          description: b.description,
          metadata: metadataInput(b.metadata),
          receiptEmail: b.receipt_email === '' ? null : b.receipt_email,
          setupFutureUsage: b.setup_future_usage === '' ? null : b.setup_future_usage,
        }),
        originOf(ctx),
      )
      return paymentIntentJson(pi)
    },
  },
  {
    method: 'POST',
    path: '/v1/payment_intents/:id/confirm',
    operation: 'paymentIntents.confirm',
    object: 'id',
    body: confirmBody,
    handle(ctx) {
      const b = ctx.body as z.infer<typeof confirmBody>
      const pi = ctx.service.paymentIntents.confirm(
        scopeOf(ctx),
        id(ctx.params),
        defined({ paymentMethod: b.payment_method, offSession: b.off_session }),
        originOf(ctx),
      )
      return paymentIntentJson(pi)
    },
  },
  {
    method: 'POST',
    path: '/v1/payment_intents/:id/capture',
    operation: 'paymentIntents.capture',
    object: 'id',
    body: captureBody,
    handle(ctx) {
      const b = ctx.body as z.infer<typeof captureBody>
      const pi = ctx.service.paymentIntents.capture(
        scopeOf(ctx),
        id(ctx.params),
        defined({ amountToCapture: b.amount_to_capture }),
        originOf(ctx),
      )
      return paymentIntentJson(pi)
    },
  },
  {
    method: 'POST',
    path: '/v1/payment_intents/:id/cancel',
    operation: 'paymentIntents.cancel',
    object: 'id',
    body: cancelBody,
    handle(ctx) {
      const b = ctx.body as z.infer<typeof cancelBody>
      const pi = ctx.service.paymentIntents.cancel(
        scopeOf(ctx),
        id(ctx.params),
        defined({ cancellationReason: b.cancellation_reason }),
        originOf(ctx),
      )
      return paymentIntentJson(pi)
    },
  },
  {
    method: 'GET',
    path: '/v1/payment_intents',
    operation: 'paymentIntents.list',
    query: listQuery,
    handle(ctx) {
      const q = ctx.query as z.infer<typeof listQuery>
      const items = ctx.service.paymentIntents.list(scopeOf(ctx), defined({ customer: q.customer }))
      return v1List(items, q, '/v1/payment_intents', paymentIntentJson, 'payment_intent')
    },
  },
  {
    method: 'GET',
    path: '/v1/payment_methods/:id',
    operation: 'paymentMethods.retrieve',
    object: 'id',
    query: z.object({ expand }),
    handle(ctx) {
      const pm = ctx.service.paymentMethods.get(scopeOf(ctx), id(ctx.params))
      if (pm === undefined) throw resourceMissing('payment_method', id(ctx.params))
      return paymentMethodJson(pm)
    },
  },
  {
    method: 'GET',
    path: '/v1/payment_methods',
    operation: 'paymentMethods.list',
    query: pmListQuery,
    handle(ctx) {
      const q = ctx.query as z.infer<typeof pmListQuery>
      const scope = scopeOf(ctx)
      if (q.customer !== undefined) ctx.service.customers.requireParam(scope, q.customer, 'customer')
      const items = ctx.service.paymentMethods.list(scope).filter((pm) => q.customer === undefined || pm.customer === q.customer)
      return v1List(
        q.type === undefined || q.type === 'card' ? items : [],
        q,
        '/v1/payment_methods',
        paymentMethodJson,
        'payment_method',
      )
    },
  },
  {
    method: 'GET',
    path: '/v1/customers/:id/payment_methods',
    operation: 'customers.listPaymentMethods',
    object: 'id',
    query: z.object({ ...v1ListFields, type: z.string().optional(), allow_redisplay: z.string().optional() }),
    handle(ctx) {
      const q = ctx.query as z.infer<typeof pmListQuery>
      const scope = scopeOf(ctx)
      const customer = ctx.service.customers.require(scope, id(ctx.params)).id
      const items = ctx.service.paymentMethods.ofCustomer(scope, customer)
      return v1List(
        q.type === undefined || q.type === 'card' ? items : [],
        q,
        `/v1/customers/${customer}/payment_methods`,
        paymentMethodJson,
        'payment_method',
      )
    },
  },
  {
    method: 'POST',
    path: '/v1/payment_methods/:id/attach',
    operation: 'paymentMethods.attach',
    object: 'id',
    body: attachBody,
    handle(ctx) {
      const b = ctx.body as z.infer<typeof attachBody>
      const scope = scopeOf(ctx)
      const value = id(ctx.params)
      // A test token (`pm_card_visa`) makes a new payment method from its test card and attaches
      // that, as the provider's test mode does; an id must exist.
      const token = testCard(value) !== undefined
      if (!token && ctx.service.paymentMethods.get(scope, value) === undefined) throw resourceMissing('payment_method', value)
      ctx.service.customers.requireParam(scope, b.customer, 'customer')
      ctx.service.paymentMethods.checkAttachable(scope, value, b.customer, 'customer')
      const pmId = token ? ctx.service.paymentMethods.resolve(scope, value, 'payment_method').id : value
      return paymentMethodJson(ctx.service.paymentMethods.attach(scope, pmId, b.customer, originOf(ctx)))
    },
  },
  {
    method: 'POST',
    path: '/v1/payment_methods/:id/detach',
    operation: 'paymentMethods.detach',
    object: 'id',
    body: z.object({ expand }),
    handle: (ctx) => paymentMethodJson(ctx.service.paymentMethods.detach(scopeOf(ctx), id(ctx.params), originOf(ctx))),
  },
  {
    method: 'GET',
    path: '/v1/charges/:id',
    operation: 'charges.retrieve',
    object: 'id',
    query: z.object({ expand }),
    handle(ctx) {
      const c = ctx.service.charges.get(scopeOf(ctx), id(ctx.params))
      if (c === undefined) throw resourceMissing('charge', id(ctx.params))
      return chargeJson(c)
    },
  },
  {
    method: 'GET',
    path: '/v1/charges',
    operation: 'charges.list',
    query: chargeListQuery,
    handle(ctx) {
      const q = ctx.query as z.infer<typeof chargeListQuery>
      const items = ctx.service.charges
        .list(scopeOf(ctx))
        .filter(
          (c) =>
            (q.customer === undefined || c.customer === q.customer) &&
            (q.payment_intent === undefined || c.paymentIntent === q.payment_intent),
        )
      return v1List(items, q, '/v1/charges', chargeJson, 'charge')
    },
  },
]
