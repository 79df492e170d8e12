/**
 * The answer to a browser's preflight for the API or the customer side: a page on an allowed host
 * (serve has already refused any other origin) may call with the provider's headers. The admin
 * API gets none: a page must not drive it.
 *
 * @example
 * preflightHeaders('http://127.0.0.1:5173', 'authorization, content-type')
 * // { 'Access-Control-Allow-Origin': 'http://127.0.0.1:5173', 'Access-Control-Allow-Methods': 'GET, POST, DELETE', ... }
 */
export function preflightHeaders(origin: string, requested: string | undefined): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Methods': 'GET, POST, DELETE',
    'Access-Control-Allow-Headers': requested ?? 'authorization, content-type',
    'Access-Control-Max-Age': '600',
    Vary: 'Origin',
  }
}
