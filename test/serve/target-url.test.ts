import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { targetUrl } from '../../src/cli/target-url.js'

const ORIGIN = 'http://127.0.0.1:12111'

function parts(u: { href: string; pathname: string; search: string } | undefined) {
  return u === undefined ? undefined : { href: u.href, pathname: u.pathname, search: u.search }
}

function viaUrl(path: string) {
  try {
    const url = new URL(`${ORIGIN}${path}`)
    return url.origin === ORIGIN ? parts(url) : undefined
  } catch {
    return undefined
  }
}

describe('targetUrl', () => {
  it('reads any request target as new URL does (path, query, href), odd characters included', () => {
    // Characters the parser keeps, escapes, normalises or treats as structure.
    const unit = fc.constantFrom(
      'a',
      'Z',
      '0',
      '_',
      '-',
      '~',
      '.',
      '/',
      '?',
      '=',
      '&',
      '%',
      '2',
      'F',
      ' ',
      '"',
      '#',
      '<',
      "'",
      '\\',
      '[',
      ']',
      '@',
      ':',
      'é',
      '\t',
    )
    const path = fc.string({ unit, maxLength: 24 }).map((rest) => `/${rest}`)
    fc.assert(
      fc.property(path, (p) => {
        expect(parts(targetUrl(ORIGIN, p))).toEqual(viaUrl(p))
      }),
      { numRuns: 20_000, seed: 11 },
    )
  })

  it('answers a plain path from its text and a lone ? with an empty search, as new URL does', () => {
    expect(parts(targetUrl(ORIGIN, '/v1/customers/cus_1'))).toEqual(viaUrl('/v1/customers/cus_1'))
    expect(parts(targetUrl(ORIGIN, '/v1/customers?'))).toEqual(viaUrl('/v1/customers?'))
    expect(parts(targetUrl(ORIGIN, '/v1/customers?limit=3&expand[]=data.default_source'))).toEqual(
      viaUrl('/v1/customers?limit=3&expand[]=data.default_source'),
    )
    expect(parts(targetUrl(ORIGIN, '/v1/../__sim/state'))).toEqual(viaUrl('/v1/../__sim/state'))
  })
})
