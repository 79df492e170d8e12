import Stripe from 'stripe'
import { objectType } from '../../src/catalogue/index.js'
import { CURRENT_VERSION, declaredAt, subTypesAt } from '../../src/catalogue/versions.js'
import { withheldAt } from '../../src/domain/versions/withheld-at.js'
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
 * expanded objects included), as `Type.field`, inside the sub-objects its fields hold too
 * (`Invoice.StatusTransitions.paid_at`), read from that version's own declarations; events are
 * checked at their own `api_version`. A field the provider answered only when expanded at that
 * version (a charge's `refunds` from 2022-11-15 on, which clients until 2023-10-16 still declared
 * required) is not missing.
 */
export function missingFields(answer: unknown, version: string, out: string[] = [], sub?: string): string[] {
  if (Array.isArray(answer)) {
    for (const item of answer) missingFields(item, version, out, sub)
    return out
  }
  if (answer === null || typeof answer !== 'object') return out
  const o = answer as Record<string, unknown>
  const at = o.object === 'event' && typeof o.api_version === 'string' ? o.api_version : version
  const type = typeof o.object === 'string' ? (o.object === 'event' ? undefined : objectType(o.object)) : sub
  const fields = type === undefined ? undefined : declaredAt(version, type, 'objects')
  const subs = type === undefined ? undefined : subTypesAt(version, type, 'objects')
  if (fields !== undefined) {
    const withheld = typeof o.object === 'string' ? withheldAt(version).get(o.object) : undefined
    for (const [field, presence] of fields) {
      if (presence === 'required' && !(field in o) && withheld?.has(field) !== true) out.push(`${type}.${field}`)
    }
  }
  for (const [key, value] of Object.entries(o)) if (key !== 'lastResponse') missingFields(value, at, out, subs?.get(key))
  return out
}

/**
 * Every field an answer's objects carry that `version`'s client did not declare on that type and the
 * current client does (a field added later, leaked into an older shape), as `Type.field`, inside
 * the sub-objects its fields hold too; events are checked at their own `api_version`.
 */
export function leakedFields(answer: unknown, version: string, out: string[] = [], sub?: string): string[] {
  if (Array.isArray(answer)) {
    for (const item of answer) leakedFields(item, version, out, sub)
    return out
  }
  if (answer === null || typeof answer !== 'object') return out
  const o = answer as Record<string, unknown>
  const at = o.object === 'event' && typeof o.api_version === 'string' ? o.api_version : version
  const type = typeof o.object === 'string' ? (o.object === 'event' ? undefined : objectType(o.object)) : sub
  const then = type === undefined ? undefined : declaredAt(version, type, 'objects')
  const now = type === undefined ? undefined : declaredAt(CURRENT_VERSION, type, 'objects')
  const subs = type === undefined ? undefined : subTypesAt(version, type, 'objects')
  for (const [key, value] of Object.entries(o)) {
    if (key === 'lastResponse') continue
    if (then !== undefined && !then.has(key) && now?.has(key)) out.push(`${type}.${key}`)
    leakedFields(value, at, out, subs?.get(key))
  }
  return out
}
