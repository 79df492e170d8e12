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
  readonly signature: string
  readonly rateLimitedReason: string
  readonly shouldRetry: string
  /** The `User-Agent` value (not a header name) webhook deliveries are sent with. */
  readonly webhookUserAgent: string
}

export function headerNames(prefix: string): HeaderNames {
  return {
    account: `${prefix}-Account`,
    context: `${prefix}-Context`,
    version: `${prefix}-Version`,
    signature: `${prefix}-Signature`,
    rateLimitedReason: `${prefix}-Rate-Limited-Reason`,
    shouldRetry: `${prefix}-Should-Retry`,
    webhookUserAgent: `${prefix}/1.0 (+https://docs.${prefix.toLowerCase()}.test/webhooks)`,
  }
}
