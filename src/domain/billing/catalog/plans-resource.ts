import type { ResourceDeclaration } from '../../engine/declaration.js'

/** Plans (the older form of recurring prices): a caller may choose the id. */
export const plans: ResourceDeclaration = {
  type: 'Plan',
  object: 'plan',
  idPrefix: 'plan',
  callerId: true,
  defaults: ({ params }) => ({
    active: true,
    billing_scheme: 'per_unit',
    interval_count: 1,
    usage_type: 'licensed',
    amount_decimal: params.amount === undefined ? null : String(params.amount),
  }),
}
