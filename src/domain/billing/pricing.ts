/**
 * What a price charges for a quantity: per unit (with `transform_quantity` and decimal unit
 * amounts) or tiered (`graduated`: each tier prices its own slice; `volume`: the tier the whole
 * quantity falls in prices every unit), in the currency's minor unit, rounded half up once per line,
 * as the provider rounds line amounts.
 */

/** The price fields the amount depends on (wire JSON of a `price`). */
export type PriceTerms = Readonly<Record<string, unknown>> & {
  readonly billing_scheme?: unknown
  readonly unit_amount?: unknown
  readonly unit_amount_decimal?: unknown
  readonly tiers_mode?: unknown
  readonly tiers?: unknown
  readonly transform_quantity?: unknown
}

interface Tier {
  readonly up_to: number | null
  readonly unit_amount_decimal: string | null
  readonly flat_amount_decimal: string | null
  readonly unit_amount: number | null
  readonly flat_amount: number | null
}

/** A decimal as an exact fraction: `num / 10^scale`. */
interface Fraction {
  readonly num: bigint
  readonly scale: number
}

const ZERO: Fraction = { num: 0n, scale: 0 }

/**
 * Parses a decimal string or integer into an exact fraction.
 *
 * @example
 * fraction('0.0125') // { num: 125n, scale: 4 }
 */
export function fraction(value: unknown): Fraction {
  if (value === null || value === undefined || value === '') return ZERO
  const text = typeof value === 'number' ? String(value) : String(value)
  const m = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text.trim())
  if (m === null) return ZERO
  const frac = m[3] ?? ''
  const num = BigInt(`${m[2] || '0'}${frac}`)
  return { num: m[1] === '-' ? -num : num, scale: frac.length }
}

function add(a: Fraction, b: Fraction): Fraction {
  const scale = Math.max(a.scale, b.scale)
  return { num: a.num * 10n ** BigInt(scale - a.scale) + b.num * 10n ** BigInt(scale - b.scale), scale }
}

function times(a: Fraction, n: number): Fraction {
  return { num: a.num * BigInt(n), scale: a.scale }
}

/** Rounds half up to an integer. */
function rounded(a: Fraction): number {
  if (a.scale === 0) return Number(a.num)
  const d = 10n ** BigInt(a.scale)
  const q = a.num / d
  const r = a.num % d
  return Number(2n * (r < 0n ? -r : r) >= d ? q + (a.num < 0n ? -1n : 1n) : q)
}

function unitOf(p: { unit_amount_decimal?: unknown; unit_amount?: unknown }): Fraction {
  return p.unit_amount_decimal !== null && p.unit_amount_decimal !== undefined
    ? fraction(p.unit_amount_decimal)
    : fraction(p.unit_amount)
}

function tiersOf(price: PriceTerms): Tier[] {
  return Array.isArray(price.tiers) ? (price.tiers as Tier[]) : []
}

/**
 * The quantity a price bills after `transform_quantity` (`divide_by`, `round` up or down).
 *
 * @example
 * billedQuantity({ transform_quantity: { divide_by: 1000, round: 'up' } }, 1001) // 2
 */
export function billedQuantity(price: PriceTerms, quantity: number): number {
  const t = price.transform_quantity as { divide_by?: number; round?: string } | null | undefined
  if (t === null || t === undefined || typeof t.divide_by !== 'number' || t.divide_by <= 0) return quantity
  const q = quantity / t.divide_by
  return t.round === 'up' ? Math.ceil(q) : Math.floor(q)
}

/**
 * The amount of one line: `quantity` units of `price` (quantity before `transform_quantity`).
 *
 * @example
 * lineAmount({ billing_scheme: 'per_unit', unit_amount_decimal: '0.5' }, 3) // 2 (1.5 rounds half up)
 */
export function lineAmount(price: PriceTerms, quantity: number): number {
  if (price.billing_scheme !== 'tiered') return rounded(times(unitOf(price), billedQuantity(price, quantity)))
  const tiers = tiersOf(price)
  if (price.tiers_mode === 'volume') {
    const tier = tiers.find((t) => t.up_to === null || quantity <= t.up_to) ?? tiers.at(-1)
    if (tier === undefined) return 0
    const flat = quantity > 0 ? flatOf(tier) : ZERO
    return rounded(add(times(unitOf(tier), quantity), flat))
  }
  let total = ZERO
  let below = 0
  for (const tier of tiers) {
    if (quantity <= below) break
    const top = tier.up_to === null ? quantity : Math.min(quantity, tier.up_to)
    const units = top - below
    if (units > 0) total = add(add(total, times(unitOf(tier), units)), flatOf(tier))
    below = top
  }
  return rounded(total)
}

function flatOf(tier: Tier): Fraction {
  return tier.flat_amount_decimal !== null && tier.flat_amount_decimal !== undefined
    ? fraction(tier.flat_amount_decimal)
    : fraction(tier.flat_amount)
}

/**
 * The `unit_amount_decimal` a line shows: the price's unit amount, or for tiered prices the
 * amount divided by the quantity (null when the quantity is 0).
 */
export function lineUnitDecimal(price: PriceTerms, quantity: number, amount: number): string | null {
  if (price.billing_scheme !== 'tiered' && price.transform_quantity == null) {
    const u = price.unit_amount_decimal ?? price.unit_amount
    return u === null || u === undefined ? null : String(u)
  }
  if (quantity === 0) return null
  const q = billedQuantity(price, quantity)
  const base = price.billing_scheme === 'tiered' ? quantity : q
  if (base === 0) return null
  return String(Number((amount / base).toFixed(12)))
}
