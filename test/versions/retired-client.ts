import type Stripe from 'stripe'
import { retiredOperations } from '../../src/catalogue/versions.js'

type Call = (...args: unknown[]) => Promise<any>

/**
 * The methods an older official client declared and the pinned one dropped
 * (`invoices.retrieveUpcoming`, `subscriptionItems.createUsageRecord`), made from the generated
 * facts the way that client made them (`stripeMethod({ method, fullPath })`): path arguments
 * first, then the params, sent through the pinned client's own request code.
 */
export function retiredClient(stripe: Stripe): Record<string, Record<string, Call>> {
  const out: Record<string, Record<string, Call>> = {}
  for (const [name, op] of Object.entries(retiredOperations())) {
    const [resource, method] = name.split('.') as [string, string]
    const target = (stripe as unknown as Record<string, { _makeRequest: Call }>)[resource]
    if (target === undefined) continue
    out[resource] ??= {}
    out[resource][method] = (...args: unknown[]) => {
      let i = 0
      const path = op.path.replace(/:\w+/g, () => encodeURIComponent(String(args[i++])))
      return target._makeRequest(
        op.method,
        path,
        (args[i] ?? {}) as object,
        undefined,
        op.returns?.kind === 'list' ? { methodType: 'list' } : {},
      )
    }
  }
  return out
}
