/** Options of `sim.intercept()` and of the msw adapter. */
export interface InterceptOptions {
  /**
   * Hosts routed to the simulator. Default: `api.service.test` and `meter-events.service.test`,
   * plus `api.stripe.com` and `meter-events.stripe.com` when the header prefix is `Stripe`.
   */
  hosts?: readonly string[]
  /**
   * What happens to requests for any other host: `'passthrough'` lets them reach the network;
   * `'error'` (default) makes them fail loudly. Loopback hosts always pass.
   */
  unmatched?: 'passthrough' | 'error'
}

/** The API base host and the meter events host the simulator answers by default. */
export const DEFAULT_HOSTS = ['api.service.test', 'meter-events.service.test'] as const

/** The hosts the official `stripe` client talks to. */
export const STRIPE_HOSTS = ['api.stripe.com', 'meter-events.stripe.com'] as const

/**
 * The hosts to route for a header prefix and options: the explicit list when given, otherwise the
 * defaults (and the provider's own hosts when the prefix is `Stripe`).
 *
 * @example
 * hostsFor('Stripe', {}) // ['api.service.test', 'meter-events.service.test', 'api.stripe.com', 'meter-events.stripe.com']
 */
export function hostsFor(prefix: string, options: Pick<InterceptOptions, 'hosts'> = {}): string[] {
  if (options.hosts !== undefined) {
    for (const host of options.hosts) {
      if (typeof host !== 'string' || !/^[A-Za-z0-9.-]+(:\d+)?$/.test(host)) {
        throw new TypeError(`intercept: host '${String(host)}' must be a host name such as api.service.test (no scheme, no path)`)
      }
    }
    return [...options.hosts]
  }
  return prefix === 'Stripe' ? [...DEFAULT_HOSTS, ...STRIPE_HOSTS] : [...DEFAULT_HOSTS]
}
