import Stripe from 'stripe'
import { objectType } from '../../src/catalogue/index.js'
import { declaredAt } from '../../src/catalogue/versions.js'
import { createSimulator, type Simulator } from '../../src/index.js'

/** A simulator whose platform default is `version`, with an official client pinned to it. */
export function pinned(version: string, seed = 1): { sim: Simulator; stripe: Stripe } {
  const sim = createSimulator({ seed, headerPrefix: 'Stripe', limits: false, apiVersion: version })
  const stripe = new Stripe(sim.platform.secretKey.test, {
    apiVersion: version as Stripe.LatestApiVersion,
    httpClient: Stripe.createFetchHttpClient(sim.fetch),
    maxNetworkRetries: 0,
  })
  return { sim, stripe }
}

/**
 * Every field `version`'s client declares non-optional that an answer's objects lack (lists and
 * expanded objects included), as `Type.field`; events are checked at their own `api_version`.
 */
export function missingFields(answer: unknown, version: string, out: string[] = []): string[] {
  if (Array.isArray(answer)) {
    for (const item of answer) missingFields(item, version, out)
    return out
  }
  if (answer === null || typeof answer !== 'object') return out
  const o = answer as Record<string, unknown>
  const at = o.object === 'event' && typeof o.api_version === 'string' ? o.api_version : version
  const type = typeof o.object === 'string' && o.object !== 'event' ? objectType(o.object) : undefined
  const fields = type === undefined ? undefined : declaredAt(version, type, 'objects')
  if (fields !== undefined) {
    for (const [field, presence] of fields) if (presence === 'required' && !(field in o)) out.push(`${type}.${field}`)
  }
  for (const [key, value] of Object.entries(o)) if (key !== 'lastResponse') missingFields(value, at, out)
  return out
}
