import type { Field, Shape } from '#catalogue/types.js'

const optional = (shape: Shape): Field => ({ shape, optional: true })
const required = (shape: Shape): Field => ({ shape })
const text: Shape = { t: 'string' }

/**
 * The params types of the four off-session payment operations, quoted from the provider's v2 API
 * reference: the pinned official client has no such operations, so the catalogue has no types to
 * generate them from. Checked by the catalogue's own validator, in its words.
 *
 * @example
 * new ParamsCompiler((name) => OFF_SESSION_PAYMENT_PARAMS[name]).validator('V2.Payments.OffSessionPaymentCreateParams')
 */
export const OFF_SESSION_PAYMENT_PARAMS: Readonly<Record<string, Shape>> = {
  'V2.Payments.OffSessionPaymentCreateParams': {
    t: 'object',
    fields: {
      amount: required({
        t: 'object',
        fields: { value: required({ t: 'integer' }), currency: required(text) },
      }),
      cadence: required({ t: 'string', enum: ['recurring', 'unscheduled'] }),
      customer: required(text),
      payment_method: required(text),
      metadata: optional({ t: 'map', of: text }),
      retry_details: optional({
        t: 'object',
        fields: { retry_strategy: required({ t: 'string', enum: ['none', 'smart'] }) },
      }),
      statement_descriptor: optional(text),
      statement_descriptor_suffix: optional(text),
    },
  },
  'V2.Payments.OffSessionPaymentRetrieveParams': { t: 'object', fields: {} },
  'V2.Payments.OffSessionPaymentCancelParams': { t: 'object', fields: {} },
  'V2.Payments.OffSessionPaymentListParams': {
    t: 'object',
    fields: { limit: optional({ t: 'integer' }), page: optional(text) },
  },
}

/**
 * Statement descriptors are at most this long (the card networks' limit).
 *
 * @example
 * checkLength(descriptor, 'statement_descriptor', MAX_STATEMENT_DESCRIPTOR)
 */
export const MAX_STATEMENT_DESCRIPTOR = 22
