import { errorMessage } from '#catalogue/errors.js'
import { isPlainObject } from '../../engine/apply-params.js'
import { checkNotEmpty } from '../../engine/checks.js'
import type { OperationCall } from '../../engine/declaration.js'
import type { Engine } from '../../engine/engine.js'
import type { Json } from '../../engine/list.js'
import { invalidRequest } from '../../service-error.js'

type Params = Readonly<Record<string, unknown>>

const missing = (param: string) =>
  invalidRequest(errorMessage('parameter_missing', { param }), { code: 'parameter_missing', param })
const invalid = (param: string, detail: string) =>
  invalidRequest(errorMessage('parameter_invalid', { param, detail }), { code: 'parameter_invalid', param })

/** `name[key]`, or `key` at the root. */
const under = (prefix: string, key: string) => (prefix === '' ? key : `${prefix}[${key}]`)

/**
 * A price a call names or describes inline: `price` is the object (a draft, not stored, while it
 * is described by `price_data`), and `make()` creates what `price_data` describes (its
 * `product_data` product first) and answers the stored price. Everything is checked when the plan
 * is made, so a refused call creates nothing.
 *
 * @example
 * const planned = plannedPrice(engine, call, entry, 'items[0]', 'price_draft_0')
 * checkCurrency(planned.price)  // checks on the draft
 * const price = planned.make()  // price.created (and product.created) now
 */
export interface PlannedPrice {
  readonly price: Json
  make(): Json
}

/**
 * Checks `product_data` (a name is required) and answers a function creating the product
 * through `products.create` (its own checks and `product.created`).
 *
 * @example
 * const make = plannedProduct(engine, call, params.product_data, 'product_data')
 * const productId = make()
 */
export function plannedProduct(engine: Engine, call: OperationCall, data: unknown, param: string): () => string {
  if (!isPlainObject(data)) throw missing(param)
  checkNotEmpty(data.name, `${param}[name]`)
  return () => (engine.run('products.create', { ...call, path: {}, params: data }) as Json).id
}

/** A non-negative amount where one is given. */
function checkAmount(v: unknown, param: string): void {
  if (v !== undefined && v !== null && v !== '' && !(Number(v) >= 0)) throw invalid(param, 'must be a non-negative amount')
}

/**
 * The price of an entry with `price` (an id, checked by the engine's reference check) or
 * `price_data` (a new price made inline, inactive as the provider makes them, with a product named
 * by `product` or made from `product_data`); `undefined` when the entry has neither.
 */
export function plannedPrice(
  engine: Engine,
  call: OperationCall,
  entry: Params,
  prefix: string,
  draftId: string,
): PlannedPrice | undefined {
  const prices = engine.resource('price')
  if (typeof entry.price === 'string' && entry.price !== '') {
    const price = prices.requireParam(call.scope, entry.price, under(prefix, 'price'))
    return { price, make: () => price }
  }
  const data = entry.price_data
  if (data === undefined) return undefined
  const param = under(prefix, 'price_data')
  if (!isPlainObject(data)) throw missing(param)
  if (typeof data.currency !== 'string' || data.currency === '') throw missing(`${param}[currency]`)
  const { product_data: productData, ...priceParams } = data
  const makeProduct =
    typeof data.product === 'string' && data.product !== ''
      ? undefined
      : productData !== undefined
        ? plannedProduct(engine, call, productData, `${param}[product_data]`)
        : undefined
  if (makeProduct === undefined && (typeof data.product !== 'string' || data.product === '')) throw missing(`${param}[product]`)
  if (data.unit_amount === undefined && data.unit_amount_decimal === undefined) throw missing(`${param}[unit_amount]`)
  if (data.unit_amount !== undefined && data.unit_amount_decimal !== undefined) {
    throw invalidRequest(errorMessage('parameters_exclusive', { params: 'unit_amount, unit_amount_decimal' }), {
      code: 'parameters_exclusive',
      param: `${param}[unit_amount]`,
    })
  }
  checkAmount(data.unit_amount, `${param}[unit_amount]`)
  checkAmount(data.unit_amount_decimal, `${param}[unit_amount_decimal]`)
  const fixed: Record<string, unknown> = { active: false }
  if (data.unit_amount_decimal !== undefined) {
    const decimal = String(data.unit_amount_decimal)
    fixed.unit_amount_decimal = decimal
    fixed.unit_amount = Number.isSafeInteger(Number(decimal)) ? Number(decimal) : null
  }
  const draft = Object.assign(prices.build(call.scope, draftId, { ...priceParams, product: data.product ?? '' }), fixed)
  return {
    price: draft,
    make() {
      const product = makeProduct === undefined ? data.product : makeProduct()
      return prices.create(call.scope, { ...priceParams, product }, call.origin, fixed)
    },
  }
}
