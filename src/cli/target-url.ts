import type { IncomingUrl } from '#http/index.js'

// A path and query of characters the WHATWG URL parser keeps as they are (no dot segments, no
// percent sign, nothing it would escape or normalise): their parts are read off the text, as
// `new URL` would give them, at a fraction of its cost per request. Anything else goes through
// `new URL`.
const PLAIN_TARGET = /^(\/[A-Za-z0-9_~-]*)+(\?[A-Za-z0-9_~.=&+*,:;@!$()/?[\]-]*)?$/

/**
 * The URL parts (`href`, `pathname`, `search`) of a request target (`/v1/customers?limit=3`) on
 * `origin` (`http://127.0.0.1:12111`), equal to those of `new URL(origin + path)`; undefined when
 * that does not parse or leaves the origin.
 *
 * @example
 * targetUrl('http://127.0.0.1:12111', '/v1/customers?limit=3')
 * // { href: 'http://127.0.0.1:12111/v1/customers?limit=3', pathname: '/v1/customers', search: '?limit=3' }
 */
export function targetUrl(origin: string, path: string): IncomingUrl | undefined {
  if (PLAIN_TARGET.test(path)) {
    const q = path.indexOf('?')
    const pathname = q === -1 ? path : path.slice(0, q)
    // `new URL` leaves a lone `?` out of `search` (not out of `href`).
    const search = q === -1 || q === path.length - 1 ? '' : path.slice(q)
    return { href: `${origin}${path}`, pathname, search }
  }
  let url: URL
  try {
    url = new URL(`${origin}${path}`)
  } catch {
    return undefined
  }
  return url.origin === origin ? url : undefined
}
