/**
 * The spec's provider-named headers, spelled with the configured prefix in both directions
 * (`Service-Account` by default, `Stripe-Account` with prefix `Stripe`), and the `User-Agent` of
 * webhook deliveries. This module is the one place that spells them: the HTTP layer reads and
 * writes them, the domain's refusals and webhook deliveries name theirs through it, and the harness
 * takes `headerNames` from the package's public entry.
 *
 * @example
 * headerNames('Stripe').account // 'Stripe-Account'
 */
export interface HeaderNames {
  readonly account: string
  readonly context: string
  readonly version: string
  /**
   * The same scoped headers under the other known prefixes (`Stripe-Account` to a `Service`
   * simulator, `Service-Account` to a `Stripe` one): the provider's official clients send only
   * their own names, so a request's scoped headers are honoured under either, never ignored.
   */
  readonly foreign: readonly ScopedHeaderNames[]
  readonly signature: string
  readonly rateLimitedReason: string
  readonly shouldRetry: string
  /** The `User-Agent` value (not a header name) webhook deliveries are sent with. */
  readonly webhookUserAgent: string
}

/** The request headers that scope a request: who it acts for, in which context, at which version. */
export interface ScopedHeaderNames {
  readonly account: string
  readonly context: string
  readonly version: string
}

/** The prefixes whose scoped headers every simulator honours: the spec's neutral one and the provider's. */
const KNOWN_PREFIXES = ['Service', 'Stripe'] as const

export function headerNames(prefix: string): HeaderNames {
  if (typeof prefix !== 'string' || !/^[A-Za-z][A-Za-z0-9]*$/.test(prefix))
    throw new TypeError("headerNames: prefix must be a header prefix such as 'Stripe' or 'Service'")
  return {
    account: `${prefix}-Account`,
    context: `${prefix}-Context`,
    version: `${prefix}-Version`,
    foreign: KNOWN_PREFIXES.filter((p) => p.toLowerCase() !== prefix.toLowerCase()).map((p) => ({
      account: `${p}-Account`,
      context: `${p}-Context`,
      version: `${p}-Version`,
    })),
    signature: `${prefix}-Signature`,
    rateLimitedReason: `${prefix}-Rate-Limited-Reason`,
    shouldRetry: `${prefix}-Should-Retry`,
    webhookUserAgent: `${prefix}/1.0 (+https://docs.${prefix.toLowerCase()}.test/webhooks)`,
  }
}
