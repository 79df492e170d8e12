import { errorDocUrl } from '#catalogue/errors.js'
import { checkEmail, checkLength, checkMetadata } from '../engine/checks.js'
import type { ResourceDeclaration } from '../engine/declaration.js'
import type { Json } from '../engine/list.js'
import { checkChargeAmount, parseCurrency } from '../ledger/currencies.js'
import type { ResourcePorts } from '../resource-ports.js'
import { ServiceError, tableError } from '../service-error.js'
import { captureCharge } from './charge-capture.js'
import { chargeSource } from './charge-source.js'
import type { AttemptResult } from './charges.js'

/** The provider's limit on a statement descriptor (the suffix has the same one). */
const STATEMENT_DESCRIPTOR_MAX = 22

type Params = Readonly<Record<string, unknown>>

/**
 * Charges. `charges.create` charges a `source` (a test token such as `tok_visa`, a token, a payment
 * method) or a customer's default; the card attempt is the one payment intents run
 * (`ports.charges.attempt`): `charge.succeeded` or `charge.failed`, a balance transaction when
 * captured, a decline answered 402 `card_error` with the failed charge's id. `capture: false`
 * only authorises; `charges.capture` captures (all or `amount`), or for a payment intent's charge
 * captures its intent, as the provider does. Retrieve, update, list and search are the engine's.
 *
 * @example
 * await stripe.charges.create({ amount: 2000, currency: 'usd', source: 'tok_visa' })
 */
export const charges: ResourceDeclaration<ResourcePorts> = {
  type: 'Charge',
  object: 'charge',
  idPrefix: 'ch',
  // A payment by a bank debit or a bank transfer, and a transfer's payment in a connected account.
  otherPrefixes: ['py'],
  only: ['retrieve', 'update', 'list', 'search'],
  // Answered only when expanded since 2022-11-15 (the version change restores it for older ones).
  withheld: ['refunds'],
  behaviours: {
    'charges.create'(call, _next, { engine, ports }) {
      const p: Params = call.params
      for (const param of ['amount', 'currency']) {
        if (p[param] === undefined) throw tableError('parameter_missing', { param }, { param })
      }
      const currency = parseCurrency(p.currency as string)
      const amount = p.amount as number
      checkChargeAmount(amount, currency)
      const customer =
        typeof p.customer === 'string' ? engine.resource('customer').requireParam(call.scope, p.customer, 'customer') : undefined
      checkMetadata(p.metadata)
      checkEmail(p.receipt_email, 'receipt_email')
      checkLength(p.statement_descriptor, 'statement_descriptor', STATEMENT_DESCRIPTOR_MAX)
      checkLength(p.statement_descriptor_suffix, 'statement_descriptor_suffix', STATEMENT_DESCRIPTOR_MAX)
      const make = chargeSource(engine, ports, call.scope, p.source, customer)
      // Nothing is refused after this point: the card attempt records a decline on the charge.
      const { paymentMethod, source } = make()
      const result = ports.charges.attempt(
        call.scope,
        {
          amount,
          currency,
          customer: customer?.id ?? null,
          paymentMethod,
          paymentIntent: null,
          description: typeof p.description === 'string' ? p.description : null,
          metadata: (p.metadata ?? {}) as Record<string, string>,
          capture: p.capture !== false,
          offSession: true,
          fields: requestFields(p, source),
        },
        call.origin,
      )
      if (result.status === 'failed') throw declined(result)
      return result.charge
    },
    'charges.capture'(call, _next, { engine, ports }) {
      const r = engine.resource('charge')
      const charge = r.require(call.scope, call.path.id ?? '')
      const intent = charge.payment_intent
      if (charge.captured === true || charge.status !== 'succeeded') {
        throw tableError('charge_already_captured', { charge: charge.id })
      }
      const amount = call.params.amount
      if (typeof intent === 'string') {
        engine.run('paymentIntents.capture', {
          ...call,
          path: { id: intent },
          params: amount === undefined ? {} : { amount_to_capture: amount },
        })
        return r.require(call.scope, charge.id)
      }
      const max = charge.amount as number
      const capture = (amount ?? max) as number
      if (!Number.isSafeInteger(capture) || capture < 1 || capture > max) {
        throw tableError('charge_capture_amount_too_large', { amount: capture, charge: charge.id, max }, { param: 'amount' })
      }
      checkEmail(call.params.receipt_email, 'receipt_email')
      return captureCharge(engine, ports, call.scope, charge.id, capture, call.origin)
    },
  },
}

/** The charge fields a create request sets beyond the attempt's own. */
function requestFields(p: Params, source: Json | null): Record<string, unknown> {
  const shipping = p.shipping as Record<string, unknown> | undefined
  return {
    receipt_email: p.receipt_email ?? null,
    shipping:
      shipping === undefined
        ? null
        : { address: null, carrier: null, name: null, phone: null, tracking_number: null, ...shipping },
    source,
    statement_descriptor: p.statement_descriptor ?? null,
    statement_descriptor_suffix: p.statement_descriptor_suffix ?? null,
    transfer_group: p.transfer_group ?? null,
  }
}

/** The provider's 402 for a declined charge: the card error, naming the failed charge. */
function declined(result: AttemptResult): ServiceError {
  const code = result.failureCode ?? 'card_declined'
  return new ServiceError({
    status: 402,
    type: 'card_error',
    code,
    message: result.failureMessage ?? '',
    extra: {
      charge: result.id,
      decline_code: result.declineCode,
      doc_url: errorDocUrl(code),
    },
  })
}
