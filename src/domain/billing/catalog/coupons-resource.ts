import { errorMessage } from '#catalogue/errors.js'
import type { ResourceDeclaration } from '../../engine/declaration.js'
import { invalidRequest } from '../../service-error.js'

const missing = (param: string) =>
  invalidRequest(errorMessage('parameter_missing', { param }), { code: 'parameter_missing', param })
const invalid = (param: string, detail: string) =>
  invalidRequest(errorMessage('parameter_invalid', { param, detail }), { code: 'parameter_invalid', param })

/**
 * Coupons: a caller may choose the id; `duration` defaults to `once`. One of `percent_off` (above 0,
 * at most 100) or `amount_off` (with its `currency`); `repeating` needs `duration_in_months`.
 */
export const coupons: ResourceDeclaration = {
  type: 'Coupon',
  object: 'coupon',
  idPrefix: 'coupon',
  idLength: 8,
  callerId: true,
  defaults: () => ({ duration: 'once', valid: true }),
  // Includable: answered only when `expand[]` names them, wherever the coupon sits (a discount's).
  withheld: ['applies_to', 'currency_options'],
  behaviours: {
    'coupons.create'(call, next) {
      const { percent_off: percent, amount_off: amount, currency, duration, duration_in_months: months } = call.params
      if (percent === undefined && amount === undefined) throw missing('percent_off')
      if (percent !== undefined && amount !== undefined) {
        throw invalidRequest(errorMessage('parameters_exclusive', { params: 'percent_off, amount_off' }), {
          code: 'parameters_exclusive',
        })
      }
      if (percent !== undefined && !(Number(percent) > 0 && Number(percent) <= 100)) {
        throw invalid('percent_off', 'must be greater than 0 and at most 100')
      }
      if (amount !== undefined && currency === undefined) throw missing('currency')
      if (duration === 'repeating' && months === undefined) throw missing('duration_in_months')
      if (duration !== 'repeating' && months !== undefined) {
        throw invalid('duration_in_months', "can only be set when duration is 'repeating'")
      }
      return next()
    },
  },
}
