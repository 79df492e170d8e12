import { errorMessage } from '#catalogue/errors.js'
import { PRICE_DECIMAL_MAX_PLACES, PRICE_MAX_INTERVAL_COUNT } from '#catalogue/rules.js'
import { checkMetadata } from '../../engine/checks.js'
import type { ResourceDeclaration } from '../../engine/declaration.js'
import type { ResourcePorts } from '../../resource-ports.js'
import { invalidRequest } from '../../service-error.js'
import { plannedProduct } from './inline-prices.js'

type Params = Readonly<Record<string, unknown>>

const missing = (param: string) =>
  invalidRequest(errorMessage('parameter_missing', { param }), { code: 'parameter_missing', param })
const invalid = (param: string, detail: string) =>
  invalidRequest(errorMessage('parameter_invalid', { param, detail }), { code: 'parameter_invalid', param })

const decimalOf = (v: unknown): string | null => (v === undefined || v === null || v === '' ? null : String(v))
const integerOf = (v: unknown): number | null => {
  if (v === undefined || v === null || v === '') return null
  const n = Number(v)
  return Number.isSafeInteger(n) ? n : null
}

const exclusive = (a: string, b: string) =>
  invalidRequest(errorMessage('parameters_exclusive', { params: `${a}, ${b}` }), { code: 'parameters_exclusive', param: a })

/** A non-negative integer amount (cents) when given: a negative price or tier is refused. */
function checkAmount(v: unknown, param: string): void {
  if (v !== undefined && v !== null && v !== '' && Number(v) < 0) throw invalid(param, 'must be a non-negative integer')
}

/** A decimal amount in cents: not negative, at most `PRICE_DECIMAL_MAX_PLACES` decimal places. */
function checkDecimal(v: unknown, param: string): void {
  if (v === undefined || v === null || v === '') return
  const text = String(v)
  if (text.startsWith('-')) throw invalid(param, 'must be a non-negative decimal')
  const places = text.split('.')[1]?.length ?? 0
  if (places > PRICE_DECIMAL_MAX_PLACES) throw invalid(param, `must have at most ${PRICE_DECIMAL_MAX_PLACES} decimal places`)
}

/** Tiers as the provider stores them: `up_to: 'inf'` is null, decimals mirror integers. */
function normalTiers(tiers: unknown): Record<string, unknown>[] {
  const list = Array.isArray(tiers) ? tiers : typeof tiers === 'object' && tiers !== null ? Object.values(tiers) : []
  return list.map((t, i) => {
    const tier = (t ?? {}) as Params
    const upTo = tier.up_to === 'inf' || tier.up_to === undefined ? null : Number(tier.up_to)
    const unit = decimalOf(tier.unit_amount_decimal ?? tier.unit_amount)
    const flat = decimalOf(tier.flat_amount_decimal ?? tier.flat_amount)
    if (tier.up_to === undefined) throw missing(`tiers[${i}][up_to]`)
    if (upTo !== null && (!Number.isSafeInteger(upTo) || upTo < 1))
      throw invalid(`tiers[${i}][up_to]`, 'must be a positive integer or inf')
    if (unit === null && flat === null) throw missing(`tiers[${i}][unit_amount]`)
    if (tier.unit_amount !== undefined && tier.unit_amount_decimal !== undefined)
      throw exclusive(`tiers[${i}][unit_amount]`, `tiers[${i}][unit_amount_decimal]`)
    if (tier.flat_amount !== undefined && tier.flat_amount_decimal !== undefined)
      throw exclusive(`tiers[${i}][flat_amount]`, `tiers[${i}][flat_amount_decimal]`)
    checkAmount(tier.unit_amount, `tiers[${i}][unit_amount]`)
    checkAmount(tier.flat_amount, `tiers[${i}][flat_amount]`)
    checkDecimal(tier.unit_amount_decimal, `tiers[${i}][unit_amount_decimal]`)
    checkDecimal(tier.flat_amount_decimal, `tiers[${i}][flat_amount_decimal]`)
    return {
      flat_amount: integerOf(tier.flat_amount ?? tier.flat_amount_decimal),
      flat_amount_decimal: flat,
      unit_amount: integerOf(tier.unit_amount ?? tier.unit_amount_decimal),
      unit_amount_decimal: unit,
      up_to: upTo,
    }
  })
}

/**
 * Checks a price's billing terms as the provider does (before anything is stored): a tiered price
 * needs `tiers_mode` and `tiers` ending in `up_to: 'inf'` with increasing bounds, and takes no
 * `unit_amount` or `transform_quantity`; a metered price needs a meter of the account (current API
 * versions); `unit_amount` and `unit_amount_decimal` exclude each other.
 */
function checkTerms(params: Params, meterExists: (id: string) => boolean, legacy: boolean): Record<string, unknown> {
  const fixed: Record<string, unknown> = {}
  if (params.unit_amount !== undefined && params.unit_amount_decimal !== undefined)
    throw exclusive('unit_amount', 'unit_amount_decimal')
  checkAmount(params.unit_amount, 'unit_amount')
  checkDecimal(params.unit_amount_decimal, 'unit_amount_decimal')
  if (params.billing_scheme === 'tiered') {
    if (params.tiers_mode === undefined) throw missing('tiers_mode')
    if (params.tiers === undefined) throw missing('tiers')
    if (params.unit_amount !== undefined || params.unit_amount_decimal !== undefined) {
      throw invalid('unit_amount', 'a tiered price takes its amounts from `tiers`, not `unit_amount`')
    }
    if (params.transform_quantity !== undefined) {
      throw invalid('transform_quantity', '`transform_quantity` cannot be combined with `billing_scheme=tiered`')
    }
    const tiers = normalTiers(params.tiers)
    if (tiers.length < 2 && tiers[0]?.up_to !== null) throw invalid('tiers', 'the last tier must have `up_to` set to `inf`')
    tiers.forEach((t, i) => {
      const last = i === tiers.length - 1
      if (last !== (t.up_to === null)) throw invalid(`tiers[${i}][up_to]`, 'only the last tier has `up_to` set to `inf`')
      const before = i === 0 ? 0 : (tiers[i - 1]?.up_to as number)
      if (!last && (t.up_to as number) <= before) throw invalid(`tiers[${i}][up_to]`, '`up_to` must increase from tier to tier')
    })
    fixed.tiers = tiers
    fixed.unit_amount = null
    fixed.unit_amount_decimal = null
  } else if (params.tiers !== undefined || params.tiers_mode !== undefined) {
    throw invalid(params.tiers !== undefined ? 'tiers' : 'tiers_mode', 'tiers are only allowed with `billing_scheme=tiered`')
  } else if (params.unit_amount === undefined && params.unit_amount_decimal === undefined) {
    // A per-unit price needs its amount: without one it would bill nothing, silently.
    throw missing('unit_amount')
  }
  if (params.unit_amount_decimal !== undefined) {
    fixed.unit_amount_decimal = String(params.unit_amount_decimal)
    fixed.unit_amount = integerOf(params.unit_amount_decimal)
  }
  const t = params.transform_quantity as Params | undefined
  if (t !== undefined && t !== null) {
    const divide = Number(t.divide_by)
    if (!Number.isSafeInteger(divide) || divide < 1) throw invalid('transform_quantity[divide_by]', 'must be a positive integer')
    fixed.transform_quantity = { divide_by: divide, round: t.round }
  }
  const recurring = params.recurring as Params | undefined
  checkRecurring(recurring)
  // Before basil a metered price could bill usage records instead of a meter (`call.aside`).
  if (recurring !== undefined && recurring !== null && recurring.usage_type === 'metered' && !legacy) {
    if (typeof recurring.meter !== 'string' || recurring.meter === '') throw missing('recurring[meter]')
    if (!meterExists(recurring.meter)) {
      throw invalidRequest(errorMessage('resource_missing', { kind: 'billing meter', id: recurring.meter }), {
        code: 'resource_missing',
        param: 'recurring[meter]',
      })
    }
  }
  if (recurring?.meter !== undefined && recurring.usage_type !== 'metered') {
    throw invalid('recurring[meter]', 'a meter can only be set on prices with `recurring[usage_type]=metered`')
  }
  return fixed
}

/**
 * A recurring price's period: `interval_count` from 1 to three years' worth (a count of 0 would
 * make a period of no length, which billing would renew forever at one instant), and a trial of
 * whole days, not negative.
 */
function checkRecurring(recurring: Params | undefined): void {
  if (recurring === undefined || recurring === null) return
  const interval = (recurring.interval ?? 'month') as keyof typeof PRICE_MAX_INTERVAL_COUNT
  const max = PRICE_MAX_INTERVAL_COUNT[interval]
  if (recurring.interval_count !== undefined && max !== undefined) {
    const count = Number(recurring.interval_count)
    if (!Number.isSafeInteger(count) || count < 1 || count > max) {
      throw invalid('recurring[interval_count]', `must be between 1 and ${max} for interval=${interval} (at most three years)`)
    }
  }
  checkAmount(recurring.trial_period_days, 'recurring[trial_period_days]')
}

const AGGREGATES = ['sum', 'max', 'last_during_period', 'last_ever']

/** The `aggregate_usage` of a legacy metered price of before basil (set aside by the version walk), checked. */
function legacyAggregate(aside: Params | undefined): string | undefined {
  const value = aside?.aggregate_usage
  if (value === undefined) return undefined
  if (typeof value !== 'string' || !AGGREGATES.includes(value)) {
    throw invalid('recurring[aggregate_usage]', `must be one of ${AGGREGATES.join(', ')}`)
  }
  return value
}

/** Prices: `one_time` unless `recurring` is given (then monthly-licensed defaults under it); tiered, metered, decimal. */
export const prices: ResourceDeclaration<ResourcePorts> = {
  type: 'Price',
  object: 'price',
  idPrefix: 'price',
  // The provider answers a tiered price's tiers (and its other currencies) only when asked.
  withheld: ['tiers', 'currency_options'],
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
  behaviours: {
    'prices.create'(call, next, { engine, ports }) {
      if (typeof call.params.product === 'string')
        engine.resource('product').requireParam(call.scope, call.params.product, 'product')
      // `product_data`: a new product made with the price (checked first, made only once the price is).
      const makeProduct =
        call.params.product === undefined && call.params.product_data !== undefined
          ? plannedProduct(engine, call, call.params.product_data, 'product_data')
          : undefined
      const aggregate = legacyAggregate(call.aside)
      const fixed = checkTerms(
        call.params,
        (id) => ports.metering.meters.find(call.scope, id) !== undefined,
        aggregate !== undefined,
      )
      checkMetadata(call.params.metadata)
      const { tiers: _tiers, product_data: _data, ...params } = call.params
      const terms =
        aggregate === undefined
          ? fixed
          : (o: Record<string, unknown>) => ({ ...fixed, recurring: { ...(o.recurring as Params), aggregate_usage: aggregate } })
      return next(makeProduct === undefined ? params : { ...params, product: makeProduct() }, terms)
    },
  },
}
