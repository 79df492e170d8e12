import { tableError } from '#domain/service-error.js'
import type { HeaderNames } from './prefixed-headers.js'

/** Reads a request header by name (a `Headers` or the served request's reader). */
interface HeaderGetter {
  get(name: string): string | null
}

/** A scoped header as the request sent it: under which name, with which value. */
export interface ScopedHeader {
  readonly name: string
  readonly value: string
}

/**
 * A scoped header of the request (`account`, `context` or `version`) under the simulator's own
 * prefix or, when the request sent it only under the other known prefix, under that one: the
 * official clients send `Stripe-Account` whatever prefix a simulator speaks, and a scoped header is
 * never ignored. The same header under both prefixes with different values is refused with 400
 * naming both, rather than one being chosen silently.
 *
 * @example
 * scopedHeader(new Headers({ 'Stripe-Account': 'acct_1' }), headerNames('Service'), 'account') // { name: 'Stripe-Account', value: 'acct_1' }
 */
export function scopedHeader(
  headers: HeaderGetter,
  names: HeaderNames,
  which: 'account' | 'context' | 'version',
): ScopedHeader | undefined {
  const own = headers.get(names[which])
  let found: ScopedHeader | undefined = own === null ? undefined : { name: names[which], value: own }
  for (const foreign of names.foreign) {
    const value = headers.get(foreign[which])
    if (value === null) continue
    if (found === undefined) found = { name: foreign[which], value }
    else if (found.value !== value) {
      throw tableError('scoped_header_conflict', {
        first: found.name,
        second: foreign[which],
        firstValue: found.value,
        secondValue: value,
      })
    }
  }
  return found
}
