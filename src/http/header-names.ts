/**
 * The spec's provider-named headers, spelled with the configured prefix in both directions
 * (`Service-Account` by default, `Stripe-Account` with prefix `Stripe`).
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
}

export function headerNames(prefix: string): HeaderNames {
  return {
    account: `${prefix}-Account`,
    context: `${prefix}-Context`,
    version: `${prefix}-Version`,
    signature: `${prefix}-Signature`,
    rateLimitedReason: `${prefix}-Rate-Limited-Reason`,
    shouldRetry: `${prefix}-Should-Retry`,
  }
}
