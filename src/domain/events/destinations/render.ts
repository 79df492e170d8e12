/**
 * What `include` may ask to be shown of a destination's webhook endpoint.
 *
 * @example
 * renderDestination(stored, ['webhook_endpoint.url'] satisfies Include[])
 */
export type Include = 'webhook_endpoint.signing_secret' | 'webhook_endpoint.url'

/**
 * A destination as an answer shows it. The stored object keeps the endpoint's URL; the answer
 * shows it only when `include` names `webhook_endpoint.url`, and the signing secret only when it
 * is given (create, roll) and included. An unpinned snapshot destination shows the version its
 * events currently get: the account's.
 *
 * @example
 * renderDestination(stored, ['webhook_endpoint.url'], '2026-10-28.endive')
 */
export function renderDestination(
  stored: Readonly<Record<string, unknown>>,
  includes: readonly string[] = [],
  accountVersion?: string,
  secret?: string,
): Record<string, unknown> {
  const endpoint = (stored.webhook_endpoint ?? {}) as { url?: string }
  const shown: Record<string, unknown> = {}
  if (secret !== undefined && includes.includes('webhook_endpoint.signing_secret')) shown.signing_secret = secret
  if (includes.includes('webhook_endpoint.url')) shown.url = endpoint.url
  const out: Record<string, unknown> = { ...stored, webhook_endpoint: shown }
  // An EventBridge destination has no webhook endpoint to show.
  if (stored.type === 'amazon_eventbridge') delete out.webhook_endpoint
  if (stored.event_payload === 'snapshot' && stored.snapshot_api_version === undefined && accountVersion !== undefined) {
    out.snapshot_api_version = accountVersion
  }
  return out
}

/**
 * The `include` param as a list (one value in a query is a list of one).
 *
 * @example
 * includesOf({ include: ['webhook_endpoint.url'] }) // ['webhook_endpoint.url']
 */
export function includesOf(params: Readonly<Record<string, unknown>>): string[] {
  const inc = params.include
  if (Array.isArray(inc)) return inc.filter((x): x is string => typeof x === 'string')
  return typeof inc === 'string' ? [inc] : []
}
