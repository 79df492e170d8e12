type Obj = Record<string, unknown>

/**
 * The reverse of an invoice's `payments`: which invoice a payment intent pays, read from the
 * invoice payment records. The index is made on the first question and only then, so a walk that
 * never asks (any answer without a payment intent or charge in it) reads no records. The first
 * record naming an intent wins: the invoice that made the intent is the one it was made for.
 *
 * @example
 * const invoiceOf = intentInvoices(() => engine.resource('invoice_payment').list(scope))
 * invoiceOf('pi_1') // 'in_1'
 * invoiceOf('pi_unrelated') // null
 */
export function intentInvoices(records: () => readonly Obj[]): (paymentIntent: string) => string | null {
  let index: Map<string, string> | undefined
  return (paymentIntent) => {
    if (index === undefined) {
      index = new Map()
      for (const record of records()) {
        const pi = (record.payment as Obj | undefined)?.payment_intent
        if (typeof pi === 'string' && typeof record.invoice === 'string' && !index.has(pi)) index.set(pi, record.invoice)
      }
    }
    return index.get(paymentIntent) ?? null
  }
}

/**
 * The reverse lookup of a walk that has no invoice payments to read (an answer rendered without a
 * scope): every intent pays no invoice.
 *
 * @example
 * noInvoices('pi_1') // null
 */
export const noInvoices = (_paymentIntent: string): string | null => null
