import type Stripe from 'stripe'
import { describe, expect, it } from 'vitest'
import { setup } from '../accounts/helpers.js'

// The provider's testing page names these payment method tokens (with `pm_card_visa_`) beside the
// card numbers 4000 0000 0000 9995, 9987, 9979 and 6975.
const DOCUMENTED: ReadonlyArray<[token: string, code: string, declineCode: string, last4: string]> = [
  ['pm_card_visa_chargeDeclinedInsufficientFunds', 'card_declined', 'insufficient_funds', '9995'],
  ['pm_card_visa_chargeDeclinedLostCard', 'card_declined', 'lost_card', '9987'],
  ['pm_card_visa_chargeDeclinedStolenCard', 'card_declined', 'stolen_card', '9979'],
  ['pm_card_visa_chargeDeclinedVelocityLimitExceeded', 'card_declined', 'card_velocity_exceeded', '6975'],
]

describe('documented decline tokens', () => {
  it.each(DOCUMENTED)('%s declines a confirmed payment intent with its decline code', async (token, code, declineCode, last4) => {
    const { stripe } = setup()
    const error = await stripe.paymentIntents
      .create({ amount: 1000, currency: 'usd', payment_method: token, confirm: true })
      .then(
        () => undefined,
        (e: Stripe.errors.StripeCardError) => e,
      )
    expect(error?.type).toBe('StripeCardError')
    expect(error?.statusCode).toBe(402)
    expect(error?.code).toBe(code)
    expect(error?.decline_code).toBe(declineCode)
    const intent = error?.payment_intent
    expect(intent?.status).toBe('requires_payment_method')
    const pm = await stripe.paymentMethods.retrieve(String(intent?.last_payment_error?.payment_method?.id))
    expect(pm.card?.last4).toBe(last4)
  })
})
