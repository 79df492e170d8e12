import { errorMessage } from '#catalogue/errors.js'
import { isPlainObject } from '../../engine/apply-params.js'
import type { OperationCall, ResourceDeclaration } from '../../engine/declaration.js'
import type { Engine } from '../../engine/engine.js'
import type { Json } from '../../engine/list.js'
import type { ResourcePorts } from '../../resource-ports.js'
import { invalidRequest } from '../../service-error.js'

const invalid = (param: string, detail: string) =>
  invalidRequest(errorMessage('parameter_invalid', { param, detail }), { code: 'parameter_invalid', param })
const missing = (param: string) =>
  invalidRequest(errorMessage('parameter_missing', { param }), { code: 'parameter_missing', param })

/** A grant that is still usable (not voided, not expired), else 400. */
function liveGrant(engine: Engine, call: OperationCall, action: string): Json {
  const grant = engine.resource('billing.credit_grant').require(call.scope, call.path.id ?? '')
  const now = engine.now()
  if (grant.voided_at !== null && grant.voided_at !== undefined)
    throw invalid('id', `the credit grant is voided and cannot be ${action}`)
  if (typeof grant.expires_at === 'number' && grant.expires_at <= now) {
    throw invalid('id', `the credit grant has expired and cannot be ${action}`)
  }
  return grant
}

/** The applicability of a grant: metered prices (`price_type`) or named prices of the account. */
function checkScope(engine: Engine, call: OperationCall): void {
  const config = call.params.applicability_config
  const scope = isPlainObject(config) ? config.scope : undefined
  if (!isPlainObject(scope)) throw missing('applicability_config[scope]')
  const prices = Array.isArray(scope.prices)
    ? scope.prices
    : isPlainObject(scope.prices)
      ? Object.values(scope.prices)
      : undefined
  if (scope.price_type === undefined && (prices === undefined || prices.length === 0)) {
    throw missing('applicability_config[scope][price_type]')
  }
  if (scope.price_type !== undefined && prices !== undefined) {
    throw invalid('applicability_config[scope]', 'set either price_type or prices, not both')
  }
  prices?.forEach((p, i) => {
    const param = `applicability_config[scope][prices][${i}][id]`
    const id = isPlainObject(p) ? p.id : undefined
    if (typeof id !== 'string') throw missing(param)
    const price = engine.resource('price').requireParam(call.scope, id, param)
    if ((price.recurring as { usage_type?: unknown } | null)?.usage_type !== 'metered') {
      throw invalid(param, 'credit grants apply to metered prices only')
    }
  })
}

/**
 * Billing credit grants: an amount of credit for a customer's metered usage, used on its invoices
 * before payment by priority (lower first), then the soonest to expire. Granting records a
 * `credits_granted` balance transaction; `expire` and `void` take what is left
 * (src/domain/billing/credits.ts).
 *
 * @example
 * await stripe.billing.creditGrants.create({ customer: 'cus_…', category: 'paid', amount: { type: 'monetary', monetary: { currency: 'usd', value: 1000 } }, applicability_config: { scope: { price_type: 'metered' } } })
 */
export const creditGrants: ResourceDeclaration<ResourcePorts> = {
  type: 'Billing.CreditGrant',
  object: 'billing.credit_grant',
  idPrefix: 'credgr',
  touch: ['updated'],
  behaviours: {
    'billing.creditGrants.create'(call, next, { engine, ports }) {
      const { customer, amount, category, effective_at: effectiveAt, expires_at: expiresAt, priority } = call.params
      if (typeof customer !== 'string') throw missing('customer')
      const c = engine.resource('customer').requireParam(call.scope, customer, 'customer')
      const money = isPlainObject(amount) ? amount.monetary : undefined
      if (!isPlainObject(amount) || amount.type !== 'monetary' || !isPlainObject(money)) throw missing('amount[monetary]')
      if (typeof money.currency !== 'string' || money.currency === '') throw missing('amount[monetary][currency]')
      const value = Number(money.value)
      if (!Number.isSafeInteger(value) || value <= 0) throw invalid('amount[monetary][value]', 'must be a positive integer')
      if (category !== undefined && category !== 'paid' && category !== 'promotional') {
        throw invalid('category', "must be one of 'paid', 'promotional'")
      }
      if (priority !== undefined && !(Number.isInteger(Number(priority)) && Number(priority) >= 0 && Number(priority) <= 100)) {
        throw invalid('priority', 'must be an integer between 0 and 100')
      }
      checkScope(engine, call)
      const now = Math.floor(ports.billing.timelineOfCustomer(call.scope, c).now() / 1000)
      const effective = effectiveAt === undefined ? now : Number(effectiveAt)
      if (expiresAt !== undefined && !(Number(expiresAt) > effective)) throw invalid('expires_at', 'must be after effective_at')
      const grant = next(call.params, {
        amount: { monetary: { currency: money.currency.toLowerCase(), value }, type: 'monetary' },
        category: category ?? 'paid',
        effective_at: effective,
        test_clock: c.test_clock ?? null,
        ...(priority === undefined ? {} : { priority: Number(priority) }),
      }) as Json
      ports.billing.credits.granted(call.scope, grant, call.origin)
      return grant
    },
    'billing.creditGrants.update'(call, next, { engine }) {
      const grant = liveGrant(engine, call, 'updated')
      const expires = call.params.expires_at
      if (expires !== undefined && expires !== '' && !(Number(expires) > Number(grant.effective_at ?? grant.created))) {
        throw invalid('expires_at', 'must be after effective_at')
      }
      return next()
    },
    'billing.creditGrants.expire'(call, _next, { engine, ports }) {
      const grant = liveGrant(engine, call, 'expired')
      const now = engine.now()
      const expired = engine.resource('billing.credit_grant').set(call.scope, grant.id, { expires_at: now }, call.origin)
      ports.billing.credits.drain(call.scope, expired, 'credits_expired', now, call.origin)
      return expired
    },
    'billing.creditGrants.voidGrant'(call, _next, { engine, ports }) {
      const grant = liveGrant(engine, call, 'voided')
      const now = engine.now()
      const voided = engine.resource('billing.credit_grant').set(call.scope, grant.id, { voided_at: now }, call.origin)
      ports.billing.credits.drain(call.scope, voided, 'credits_voided', now, call.origin)
      return voided
    },
  },
}
