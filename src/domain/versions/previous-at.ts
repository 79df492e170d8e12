import { noInvoices } from './intent-invoices.js'
import { renderAt } from './render-at.js'

type Obj = Record<string, unknown>

/**
 * An `*.updated` event's `previous_attributes` at an older version: the object as it was (the
 * current object with the previous values put back) is rendered at `version` like the object
 * itself, and the fields whose rendering differs from the rendered object now are the previous
 * attributes of that version. A field that version did not have never leaks in, and a field it
 * computed from a changed one (an invoice's `paid` from its `status`) shows its previous value too.
 *
 * @example
 * previousAt(invoice, rendered, { status: 'open' }, '2022-08-01', find) // { status: 'open', paid: false }
 */
export function previousAt(
  now: Readonly<Obj>,
  renderedNow: Readonly<Obj>,
  previous: Readonly<Obj>,
  version: string,
  find: (id: string) => Obj | undefined,
  invoiceOf: (paymentIntent: string) => string | null = noInvoices,
): Obj {
  const before = renderAt({ ...now, ...previous }, version, find, [], invoiceOf) as Obj
  const out: Obj = {}
  for (const key in before) {
    if (key in renderedNow && same(before[key], renderedNow[key])) continue
    out[key] = before[key]
  }
  // A field the object has now and did not have before: its previous value is null.
  for (const key in renderedNow) if (!(key in before)) out[key] = null
  return out
}

function same(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b)
}
