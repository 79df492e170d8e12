/**
 * One breaking change between two consecutive API versions, declared as a small module: what an
 * object looked like before it (`back`, applied when an answer walks back past `version`) and how
 * a request of before it reads now (`forward`). Only changes that move or compute a value are
 * written by hand; a field that was plainly added or removed is known from the generated facts
 * (`#catalogue/versions.js`) and handled by the walk itself.
 *
 * @example
 * const change: VersionChange = {
 *   version: '2025-03-31.basil',
 *   description: 'invoice.paid computed from the status',
 *   back: { invoice: (o) => { o.paid = o.status === 'paid' } },
 * }
 */
export interface VersionChange {
  /** The first version with the new shape: answers at any older version walk this change back. */
  readonly version: string
  readonly description: string
  /**
   * A change of meaning without a change of fields (a default that changed, a value renamed): its
   * `forward` spells out what an older version meant, the fields being the same at both.
   */
  readonly meaning?: true
  /** Per `object` value, restores the older shape in place on a copy of the answer's object. */
  readonly back?: Readonly<Record<string, (object: Record<string, unknown>, ctx: WalkContext) => void>>
  /**
   * Per operation name, turns the params of an older version into current ones (in place). A value
   * the current params have no place for (a legacy price's `recurring.aggregate_usage`) is put in
   * `aside`, which the operation reads as `call.aside`.
   */
  readonly forward?: Readonly<Record<string, (params: Record<string, unknown>, aside: Record<string, unknown>) => void>>
  /**
   * Expand paths of before the change that name a restored field (`latest_invoice.payment_intent`):
   * their last segment. They are taken out of the request and applied to the walked-back answer.
   */
  readonly expandable?: readonly string[]
  /**
   * Per `object` value, fields the provider stopped answering unless `expand[]` names them as of
   * `version` (a charge's `refunds`). Answers and events at `version` or later leave them out, even
   * where that version's client still declared them required; `back` restores them for older ones.
   */
  readonly withheld?: Readonly<Record<string, readonly string[]>>
}

/** What a change may read besides the object: other objects of the same account and mode. */
export interface WalkContext {
  /** The version the answer is rendered at. */
  readonly version: string
  /** An object by id in the current shape (stored), or `undefined`. */
  find(id: string): Record<string, unknown> | undefined
  /** An object rendered at the walk's version (for values that were expanded by default then). */
  render(object: Record<string, unknown>): Record<string, unknown>
  /**
   * The invoice a payment intent pays (the one whose `payments` hold it), or `null`: the current
   * shape records the link on the invoice's side only, older ones on the intent too.
   */
  invoiceOf(paymentIntent: string): string | null
}
