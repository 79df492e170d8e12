import { isPlainObject } from '../engine/apply-params.js'
import type { OperationCall, ResourceDeclaration } from '../engine/declaration.js'
import type { Engine } from '../engine/engine.js'
import { type Json, pageV1 } from '../engine/list.js'
import { entriesOf, integerParam, invalidParam, missingParam } from '../engine/param-checks.js'
import { subList } from '../engine/sub-list.js'
import type { ResourcePorts } from '../resource-ports.js'
import { type LineTax, lineTax, ratesAt, type TaxAddress } from './tax-math.js'

/** A calculation can be turned into a transaction for 90 days, as on the provider. */
const CALCULATION_LIFETIME = 90 * 24 * 3600

/** The customer details of a calculation that names no place. */
const NOWHERE = {
  address: null,
  address_source: null,
  ip_address: null,
  tax_ids: [],
  taxability_override: 'none',
} as unknown as Json

/** Where the tax is owed: `customer_details.address`, else the customer's billing (or shipping) address. */
function customerDetails(engine: Engine, call: OperationCall): { details: Json; at: TaxAddress; customer: string | null } {
  const { customer, customer_details: given } = call.params
  const stored =
    typeof customer === 'string' ? engine.resource('customer').requireParam(call.scope, customer, 'customer') : undefined
  // Neither names a place: nothing is taxed (the provider asks for one; the client's types do not).
  if (stored === undefined && !isPlainObject(given)) return { details: NOWHERE, at: { country: '', state: null }, customer: null }
  const source = isPlainObject(given) && given.address_source === 'shipping' ? 'shipping' : 'billing'
  const fromCustomer =
    source === 'shipping' ? (stored?.shipping as { address?: unknown } | null | undefined)?.address : stored?.address
  const address = isPlainObject(given) && isPlainObject(given.address) ? given.address : fromCustomer
  if (!isPlainObject(address) || typeof address.country !== 'string' || address.country === '') {
    throw missingParam('customer_details[address][country]')
  }
  const full = {
    city: null,
    line1: null,
    line2: null,
    postal_code: null,
    state: null,
    ...address,
    country: address.country.toUpperCase(),
  }
  const details = {
    address: full,
    address_source: source,
    ip_address: isPlainObject(given) && typeof given.ip_address === 'string' ? given.ip_address : null,
    tax_ids: [],
    taxability_override: 'none',
  } as unknown as Json
  const givenState: unknown = full.state
  const state = typeof givenState === 'string' && givenState !== '' ? givenState.toUpperCase() : null
  return { details, at: { country: full.country, state }, customer: stored === undefined ? null : stored.id }
}

/** The per-line breakdown the provider writes: one entry per rate, or one untaxed entry. */
function lineBreakdown(taxed: LineTax, at: TaxAddress): Json[] {
  if (taxed.shares.length === 0) {
    return [
      {
        amount: 0,
        jurisdiction: { country: at.country, display_name: at.country, level: 'country', state: at.state },
        sourcing: 'destination',
        tax_rate_details: null,
        taxability_reason: 'not_collecting',
        taxable_amount: 0,
      } as unknown as Json,
    ]
  }
  return taxed.shares.map(
    (s) =>
      ({
        amount: s.amount,
        jurisdiction: {
          country: at.country,
          display_name: String(s.rate.jurisdiction ?? s.rate.display_name ?? at.country),
          level: s.rate.state === null || s.rate.state === undefined ? 'country' : 'state',
          state: (s.rate.state as string | null | undefined) ?? null,
        },
        sourcing: 'destination',
        tax_rate_details: {
          display_name: String(s.rate.display_name ?? ''),
          percentage_decimal: String(s.rate.percentage ?? '0'),
          tax_type: (s.rate.tax_type as string | null | undefined) ?? 'sales_tax',
        },
        taxability_reason: 'standard_rated',
        taxable_amount: s.taxable,
      }) as unknown as Json,
  )
}

/** The calculation's own breakdown: the lines' shares summed per rate and tax behaviour. */
function totalBreakdown(lines: readonly { taxed: LineTax; inclusive: boolean }[], at: TaxAddress): Json[] {
  const byRate = new Map<string, Json & { amount: number; taxable_amount: number }>()
  for (const { taxed, inclusive } of lines) {
    for (const s of taxed.shares) {
      const key = `${s.rate.id}:${inclusive}`
      const entry = byRate.get(key) ?? {
        id: key,
        amount: 0,
        inclusive,
        tax_rate_details: {
          country: at.country,
          flat_amount: null,
          percentage_decimal: String(s.rate.percentage ?? '0'),
          rate_type: 'percentage',
          state: (s.rate.state as string | null | undefined) ?? null,
          tax_type: (s.rate.tax_type as string | null | undefined) ?? 'sales_tax',
        },
        taxability_reason: 'standard_rated',
        taxable_amount: 0,
      }
      entry.amount += s.amount
      entry.taxable_amount += s.taxable
      byRate.set(key, entry)
    }
  }
  return [...byRate.values()].map(({ id: _id, ...rest }) => rest as unknown as Json)
}

/**
 * Tax calculations from the account's tax rates: each line is taxed at the active rates of the
 * customer's country (and state, where a rate names one), exclusive or inclusive as the line says
 * (`tax-math.ts`). The provider's jurisdiction rules (registrations, product
 * tax codes, thresholds, exemptions) are not modelled: the rates the account made are the rules.
 *
 * @example
 * await stripe.tax.calculations.create({ currency: 'usd', customer_details: { address: { country: 'US', state: 'CA' }, address_source: 'billing' }, line_items: [{ amount: 1000, reference: 'L1' }] })
 */
export const taxCalculations: ResourceDeclaration<ResourcePorts> = {
  type: 'Tax.Calculation',
  object: 'tax.calculation',
  idPrefix: 'taxcalc',
  behaviours: {
    'tax.calculations.create'(call, _next, { engine, ports }) {
      const { currency, line_items: rawLines, shipping_cost: shipping } = call.params
      if (typeof currency !== 'string' || currency === '') throw missingParam('currency')
      const entries = entriesOf(rawLines)
      if (entries.length === 0) throw missingParam('line_items')
      const { details, at, customer } = customerDetails(engine, call)
      const rates = ratesAt(engine.resource('tax_rate').list(call.scope), at)
      const references = new Set<string>()
      const checked = entries.map((raw, i) => {
        const p = `line_items[${i}]`
        if (!isPlainObject(raw)) throw missingParam(`${p}[amount]`)
        if (raw.amount === undefined) throw missingParam(`${p}[amount]`)
        const amount = integerParam(raw.amount, `${p}[amount]`, 0)
        const quantity = raw.quantity === undefined ? 1 : integerParam(raw.quantity, `${p}[quantity]`, 1)
        const reference = typeof raw.reference === 'string' ? raw.reference : null
        if (reference !== null && references.has(reference)) {
          throw invalidParam(`${p}[reference]`, 'references must be unique within a calculation')
        }
        if (reference !== null) references.add(reference)
        const behavior: 'exclusive' | 'inclusive' = raw.tax_behavior === 'inclusive' ? 'inclusive' : 'exclusive'
        if (raw.tax_behavior !== undefined && raw.tax_behavior !== behavior) {
          throw invalidParam(`${p}[tax_behavior]`, "must be one of 'exclusive', 'inclusive'")
        }
        if (typeof raw.product === 'string') engine.resource('product').requireParam(call.scope, raw.product, `${p}[product]`)
        return { raw, amount, quantity, reference, behavior }
      })
      const shippingAmount = isPlainObject(shipping) ? integerParam(shipping.amount ?? 0, 'shipping_cost[amount]', 0) : undefined
      const now = engine.now()
      const lines = checked.map((l) => ({ ...l, taxed: lineTax(l.amount, l.behavior, rates) }))
      const exclusive = lines.filter((l) => l.behavior === 'exclusive').reduce((n, l) => n + l.taxed.tax, 0)
      const inclusive = lines.filter((l) => l.behavior === 'inclusive').reduce((n, l) => n + l.taxed.tax, 0)
      const subtotal = lines.reduce((n, l) => n + l.amount, 0)
      return engine.resource('tax.calculation').create(call.scope, {}, call.origin, (created) => ({
        amount_total: subtotal + exclusive + (shippingAmount ?? 0),
        currency: currency.toLowerCase(),
        customer,
        customer_details: details,
        expires_at: now + CALCULATION_LIFETIME,
        line_items: subList(
          `/v1/tax/calculations/${created.id}/line_items`,
          lines.map((l) => ({
            id: ports.billing.newId('tax_li'),
            object: 'tax.calculation_line_item',
            amount: l.amount,
            amount_tax: l.taxed.tax,
            livemode: created.livemode,
            metadata: isPlainObject(l.raw.metadata) ? l.raw.metadata : {},
            product: typeof l.raw.product === 'string' ? l.raw.product : null,
            quantity: l.quantity,
            reference: l.reference,
            tax_behavior: l.behavior,
            tax_breakdown: lineBreakdown(l.taxed, at),
            tax_code: typeof l.raw.tax_code === 'string' ? l.raw.tax_code : 'txcd_10000000',
          })),
        ),
        shipping_cost:
          shippingAmount === undefined
            ? null
            : { amount: shippingAmount, amount_tax: 0, tax_behavior: 'exclusive', tax_code: 'txcd_92010001' },
        tax_amount_exclusive: exclusive,
        tax_amount_inclusive: inclusive,
        tax_breakdown: totalBreakdown(
          lines.map((l) => ({ taxed: l.taxed, inclusive: l.behavior === 'inclusive' })),
          at,
        ),
        tax_date: now,
      }))
    },
    'tax.calculations.listLineItems'(call, _next, { engine }) {
      const calc = engine.resource('tax.calculation').require(call.scope, call.path.id ?? '')
      const url = `/v1/tax/calculations/${calc.id}/line_items`
      return pageV1((calc.line_items as { data: Json[] }).data, call.params, url, 'tax.calculation_line_item')
    },
  },
}
