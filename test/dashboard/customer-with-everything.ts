import type Stripe from 'stripe'

/**
 * A customer on a test clock with a card, a subscription (its first invoice), a payment refunded
 * in part and a payment disputed: one of everything the Objects page links.
 */
export async function customerWithEverything(stripe: Stripe) {
  const clock = await stripe.testHelpers.testClocks.create({ frozen_time: 1767225600, name: 'Renewals' })
  const customer = await stripe.customers.create({ email: 'jenny.rosen@example.com', test_clock: clock.id })
  const card = await stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id })
  await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: card.id } })
  const price = await stripe.prices.create({
    currency: 'usd',
    unit_amount: 1500,
    recurring: { interval: 'month' },
    product_data: { name: 'Pro' },
  })
  const subscription = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }] })
  const pay = (payment_method: string, amount: number) =>
    stripe.paymentIntents.create({
      amount,
      currency: 'usd',
      customer: customer.id,
      payment_method,
      confirm: true,
      automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
    })
  const disputed = await pay('pm_card_createDispute', 2000)
  const paid = await pay(card.id, 3000)
  const refund = await stripe.refunds.create({ payment_intent: paid.id, amount: 500 })
  return { clock, customer, card, subscription, disputed, paid, refund }
}
