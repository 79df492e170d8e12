import { redeem } from '../billing/catalog/promotion-redemption.js'
import { subscribeWithChallenge } from '../billing/subscriptions/subscribe-with-challenge.js'
import { runAsCustomer } from '../customer-scope.js'
import type { Json } from '../engine/list.js'
import { NO_ORIGIN } from '../events/emit-snapshot.js'
import type { Mode, Scope } from '../mode.js'
import { TEST_BANK_ACCOUNTS } from '../payments/bank-debit.js'
import { createMandate } from '../payments/mandates.js'
import { authenticateSetup } from '../payments/setup-intents/setup-flow.js'
import type { Service } from '../service.js'
import { resourceMissing, tableError } from '../service-error.js'
import { SUBSCRIPTION_DATA } from './checkout-line-items.js'
import {
  asksChallenge,
  checkCardSucceeds,
  collectedInformation,
  customerDetails,
  customerFor,
  isDelayedMethod,
  type PayerDetails,
} from './checkout-payer.js'
import { type SubscriptionData, startsInTrial, subscriptionParamsAt } from './checkout-subscription-data.js'

/** What the customer does on the checkout page. */
export interface CheckoutCompletion {
  /**
   * A test payment method token (`pm_card_visa`, `pm_card_chargeDeclined`, `pm_usBankAccount`, the
   * failing bank account `pm_usBankAccount_accountClosed`, the SEPA IBAN that settles three minutes
   * later `pm_sepaDebit_successDelayed_at`...) or a `pm_` id of the account. Default `pm_card_visa`.
   */
  readonly paymentMethod?: string
  /** The email typed on the page (default: the session's `customer_email`, else the customer's). */
  readonly email?: string
  /** The name typed on the page. */
  readonly name?: string
  /** How a 3-D Secure challenge of the card ends (default `succeed`). */
  readonly authentication?: 'succeed' | 'fail'
  /** The account the session belongs to (default the platform). */
  readonly account?: string
  /** Default: the mode the session id names (`cs_test_…`, `cs_live_…`). */
  readonly mode?: Mode
}

const run = runAsCustomer

/** The session's line items as stored (price objects and quantities). */
function itemsOf(service: Service, scope: Scope, session: string): Json[] {
  return service.engine
    .resource('item')
    .list(scope)
    .filter((i) => i.session === session)
    .reverse()
}

/** A bank debit the customer authorises online: the account (a US account or an IBAN), and its active mandate. */
function bankMethod(service: Service, scope: Scope, token: string, payer: PayerDetails): Json {
  const test = TEST_BANK_ACCOUNTS[token]
  const name = payer.name ?? 'Jenny Rosen'
  const pm = run(
    service,
    scope,
    'paymentMethods.create',
    test?.iban === undefined
      ? {
          type: 'us_bank_account',
          us_bank_account: { account_number: test?.accountNumber ?? '000123456789', routing_number: '110000000' },
          billing_details: { name, ...(payer.email === null ? {} : { email: payer.email }) },
        }
      : // The provider asks a SEPA payer for an email; a guest who gave none pays as the test payer.
        {
          type: 'sepa_debit',
          sepa_debit: { iban: test.iban },
          billing_details: { name, email: payer.email ?? 'jenny@example.com' },
        },
  )
  const acceptance = { customer_acceptance: { type: 'online', online: { ip_address: '127.0.0.1', user_agent: 'service-sim' } } }
  createMandate(service.engine, scope, pm, acceptance, 'active')
  return pm
}

/** The payment method type of a test bank account token. */
const debitType = (token: string) => (TEST_BANK_ACCOUNTS[token]?.iban === undefined ? 'us_bank_account' : 'sepa_debit')

/** Pays a `payment` session: its payment intent (reused after a decline), confirmed with the method. */
function pay(
  service: Service,
  scope: Scope,
  session: Json,
  customer: string | null,
  method: string,
  input: CheckoutCompletion,
  payer: PayerDetails,
): Json {
  const delayed = isDelayedMethod(method)
  const pm = delayed ? bankMethod(service, scope, method, payer).id : method
  const previous = typeof session.payment_intent === 'string' ? session.payment_intent : undefined
  const intent =
    previous ??
    run(service, scope, 'paymentIntents.create', {
      amount: session.amount_total,
      currency: session.currency,
      payment_method_types: [delayed ? debitType(method) : 'card'],
      ...(customer === null ? {} : { customer }),
      metadata: {},
    }).id
  // The intent is the session's from its first attempt, so a declined card can be retried.
  service.engine.resource('checkout.session').put(scope, session.id, { payment_intent: intent })
  let paid = run(service, scope, 'paymentIntents.confirm', { payment_method: pm }, { id: intent })
  if (paid.status === 'requires_action' && !delayed) {
    paid = service.paymentIntents.authenticate(scope, intent, input.authentication ?? 'succeed', NO_ORIGIN) as Json
    if (paid.status !== 'succeeded') throw tableError('payment_intent_authentication_failure', {}, { status: 402 })
  }
  return { payment_intent: intent, payment_status: paid.status === 'succeeded' ? 'paid' : 'unpaid' } as unknown as Json
}

/** The session's `discounts` as given (`[{ coupon }]` or `[{ promotion_code }]`). */
function discountsOf(session: Json): Json[] {
  return Array.isArray(session.discounts) ? (session.discounts as Json[]) : []
}

/** Counts the redemption of the session's coupon or promotion code once its payment is made. */
function redeemSession(service: Service, scope: Scope, session: Json): void {
  const { engine } = service
  const redemptions = discountsOf(session).flatMap((d) => {
    const promo =
      typeof d.promotion_code === 'string' ? engine.resource('promotion_code').get(scope, d.promotion_code) : undefined
    const of = (c: unknown) => (typeof c === 'object' && c !== null ? (c as Json).id : c)
    const id = promo === undefined ? d.coupon : of((promo.promotion as Json | undefined)?.coupon ?? promo.coupon)
    const coupon = typeof id === 'string' ? engine.resource('coupon').get(scope, id) : undefined
    return coupon === undefined ? [] : [{ coupon, promotionCode: promo }]
  })
  redeem(engine, scope, redemptions)
}

/**
 * Subscribes the customer: the session's one-time prices as invoice items (so they go on the first
 * invoice), the subscription of its recurring prices with what `subscription_data` asked (trial,
 * metadata, description, default tax rates, billing cycle anchor), its first invoice and that
 * invoice's payment.
 */
function subscribe(service: Service, scope: Scope, session: Json, customer: string, method: string): Record<string, unknown> {
  const pm = service.paymentMethods.resolve(scope, method, 'payment_method')
  service.paymentMethods.attach(scope, pm.id, customer, NO_ORIGIN)
  const all = itemsOf(service, scope, session.id)
  const recurring = (i: Json) => (i.price as Json).recurring != null
  for (const once of all.filter((i) => !recurring(i)))
    run(service, scope, 'invoiceItems.create', { customer, pricing: { price: (once.price as Json).id }, quantity: once.quantity })
  // The session's prices are its own to use, those its `price_data` made (inactive) included.
  const heldPrices = all.map((i) => String((i.price as Json).id))
  const data = all[0]?.[SUBSCRIPTION_DATA] as SubscriptionData | undefined
  const params: Record<string, unknown> = {
    ...subscriptionParamsAt(data, service.engine.now()),
    customer,
    items: all.filter(recurring).map((i) => ({ price: (i.price as Json).id, quantity: i.quantity })),
    default_payment_method: pm.id,
    // The session's coupon or code discounts the subscription, which redeems it.
    ...(discountsOf(session).length === 0 ? {} : { discounts: discountsOf(session) }),
  }
  // In a trial the first invoice charges only the one-time items.
  const trial = startsInTrial(
    params,
    all.map((i) => i.price as Json),
  )
  const firstAmount = trial
    ? all.filter((i) => !recurring(i)).reduce((sum, i) => sum + Number(i.amount_total ?? 0), 0)
    : Number(session.amount_total)
  const sub = service.paymentMethods.needsAuthentication(scope, pm, { offSession: false })
    ? subscribeWithChallenge(service, scope, pm, params, firstAmount, heldPrices)
    : run(service, scope, 'subscriptions.create', params, {}, heldPrices)
  const invoice =
    typeof sub.latest_invoice === 'string' ? service.engine.resource('invoice').get(scope, sub.latest_invoice) : undefined
  const status =
    invoice === undefined || invoice.amount_due === 0 ? 'no_payment_required' : invoice.status === 'paid' ? 'paid' : 'unpaid'
  return { subscription: sub.id, invoice: invoice?.id ?? null, payment_status: status }
}

/**
 * Saves the customer's payment method: the session's setup intent (made at the first attempt and
 * reused after a failed one) confirmed with it, which attaches it to the session's customer. A card
 * that asks for 3-D Secure is authenticated or failed as the completion asks; a failed challenge
 * refuses with 402 and the session stays open.
 */
function setUp(
  service: Service,
  scope: Scope,
  session: Json,
  customer: string | null,
  method: string,
  input: CheckoutCompletion,
): Record<string, unknown> {
  const previous = typeof session.setup_intent === 'string' ? session.setup_intent : undefined
  const si =
    previous ??
    run(service, scope, 'setupIntents.create', {
      ...(customer === null ? {} : { customer }),
      payment_method_types: ['card'],
      usage: 'off_session',
    }).id
  service.engine.resource('checkout.session').put(scope, session.id, { setup_intent: si })
  let done = run(service, scope, 'setupIntents.confirm', { payment_method: method }, { id: si })
  if (done.status === 'requires_action') {
    const deps = { engine: service.engine, paymentMethods: service.paymentMethods }
    done = authenticateSetup(deps, scope, si, input.authentication ?? 'succeed', NO_ORIGIN)
    if (done.status !== 'succeeded') throw tableError('setup_intent_authentication_failure', {}, { status: 402 })
  }
  return { setup_intent: si, payment_status: 'no_payment_required' }
}

/**
 * Plays the customer's browser on a checkout session's page: in `payment` mode it makes or reuses
 * the customer (per `customer_creation`) and pays the session's payment intent with the method;
 * in `subscription` mode it makes the customer and the subscription with its first invoice paid;
 * in `setup` mode it confirms the session's setup intent (`setup_intent.succeeded`, the method
 * attached). A 3-D Secure card is authenticated or failed as `authentication` says (failed: 402,
 * the session stays open). Then the session is `complete` and
 * `checkout.session.completed` is emitted, last. A delayed method completes `unpaid` and
 * `checkout.session.async_payment_succeeded` follows on the clock (`async_payment_failed`, with the
 * payment intent back in `requires_payment_method`, for a failing test bank account): at once, or,
 * for the provider's "delayed" SEPA test IBANs, when the clock passes three minutes later (the
 * payment intent `processing` until then). A declining card refuses with
 * the provider's 402 `card_error` and the session stays open (in `payment` mode its payment intent
 * has the failed attempt, as the provider's does). A session that is not open is refused (400).
 *
 * @example
 * const done = completeCheckout(service, 'cs_test_…', { paymentMethod: 'pm_card_visa' })
 * done.status         // 'complete'
 * done.payment_status // 'paid'
 */
export function completeCheckout(service: Service, sessionId: string, input: CheckoutCompletion = {}): Json {
  const scope: Scope = {
    account: input.account ?? service.accounts.platform.id,
    mode: input.mode ?? (sessionId.startsWith('cs_live_') ? 'live' : 'test'),
  }
  const sessions = service.engine.resource('checkout.session')
  const session = sessions.get(scope, sessionId)
  if (session === undefined) throw resourceMissing('checkout.session', sessionId)
  if (session.status !== 'open') throw tableError('checkout_session_inactive', { status: String(session.status) })
  const method = input.paymentMethod ?? 'pm_card_visa'
  // A bank debit pays a payment session only; elsewhere it is refused here, before a customer is made.
  if (!isDelayedMethod(method) || session.mode === 'subscription') service.paymentMethods.check(scope, method, 'payment_method')
  if (session.mode !== 'payment') checkCardSucceeds(service, scope, method)
  // A failed 3-D Secure challenge on a subscription's card is the customer's step: nothing is made.
  if (session.mode === 'subscription' && input.authentication === 'fail' && asksChallenge(service, scope, method))
    throw tableError('payment_intent_authentication_failure', {}, { status: 402 })
  const payer: PayerDetails = {
    email: input.email ?? (typeof session.customer_email === 'string' ? session.customer_email : null),
    name: input.name ?? null,
  }
  const customer = customerFor(service, scope, session, payer)
  const outcome =
    session.mode === 'subscription'
      ? subscribe(service, scope, session, customer as string, method)
      : session.mode === 'setup'
        ? setUp(service, scope, session, customer, method, input)
        : pay(service, scope, session, customer, method, input, payer)
  if (session.mode !== 'subscription') redeemSession(service, scope, session)
  const completed = sessions.put(scope, sessionId, {
    ...outcome,
    collected_information: collectedInformation(session, payer),
    customer,
    customer_details: customerDetails(service, scope, customer, payer),
    status: 'complete',
  })
  service.engine.emit('checkout.session.completed', scope, completed, NO_ORIGIN)
  // The session hears of its debit's outcome when the debit settles (at once, or after the delay
  // of a "delayed" test IBAN); the debit's own task, queued first, has run by then.
  if (outcome.payment_status === 'unpaid' && session.mode === 'payment') {
    const delay = (TEST_BANK_ACCOUNTS[method]?.settleAfter ?? 0) * 1000
    service.checkoutTimers.settleAt(scope, sessionId, service.kernel.clock.now + delay)
  }
  return completed
}
