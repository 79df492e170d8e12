import type { ResourceDeclaration } from '../engine/declaration.js'

/** Prices: `one_time` unless `recurring` is given (then monthly-licensed defaults under it). */
export const prices: ResourceDeclaration = {
  type: 'Price',
  object: 'price',
  idPrefix: 'price',
  defaults: ({ params }) => ({
    active: true,
    billing_scheme: 'per_unit',
    tax_behavior: 'unspecified',
    type: params.recurring === undefined ? 'one_time' : 'recurring',
    unit_amount_decimal: params.unit_amount === undefined ? null : String(params.unit_amount),
    recurring:
      params.recurring === undefined
        ? null
        : { interval: 'month', interval_count: 1, meter: null, trial_period_days: null, usage_type: 'licensed' },
  }),
}
