import Stripe from 'stripe'
import { createSimulator, type Simulator } from '../../src/index.js'

/** A simulator speaking the official client's header names, with a client bound to it. */
export function setup(seed = 7): { sim: Simulator; stripe: Stripe; live: Stripe } {
  const sim = createSimulator({ seed, headerPrefix: 'Stripe' })
  const client = (key: string) => new Stripe(key, { httpClient: Stripe.createFetchHttpClient(sim.fetch), maxNetworkRetries: 0 })
  return { sim, stripe: client(sim.platform.secretKey.test), live: client(sim.platform.secretKey.live) }
}

export interface Received {
  readonly raw: string
  readonly signature: string
  readonly at: number
}

/**
 * Mounts a receiver that records every delivery and answers with `status` (a number or a
 * function of the call index).
 */
export function collect(sim: Simulator, url: string, status: number | ((i: number) => number) = 200): Received[] {
  const got: Received[] = []
  sim.receivers.mount(url, async (req) => {
    const raw = await req.text()
    got.push({ raw, signature: req.headers.get('Stripe-Signature') ?? '', at: sim.clock.now })
    return new Response('{}', { status: typeof status === 'number' ? status : status(got.length - 1) })
  })
  return got
}

export async function destination(
  stripe: Stripe,
  params: Partial<Stripe.V2.Core.EventDestinationCreateParams> & { url?: string } = {},
): Promise<{ id: string; secret: string }> {
  const { url = 'https://hooks.example.test/snapshot', ...rest } = params
  const d = await stripe.v2.core.eventDestinations.create({
    name: 'hooks',
    type: 'webhook_endpoint',
    event_payload: 'snapshot',
    enabled_events: ['*'],
    webhook_endpoint: { url },
    include: ['webhook_endpoint.signing_secret'],
    ...rest,
  })
  return { id: d.id, secret: d.webhook_endpoint?.signing_secret ?? '' }
}

/** A v2 POST through sim.fetch with the test key, for error-envelope checks. */
export async function v2(sim: Simulator, method: string, path: string, body?: unknown, key = sim.platform.secretKey.test) {
  const res = await sim.fetch(`https://api.stripe.test${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: res.status, json: (await res.json()) as any }
}

/** What the parameterised delivery tests ask of an endpoint, whichever API made it. */
export interface EndpointOptions {
  url?: string
  enabled_events?: string[]
  /** Connected accounts' events instead of the owner's own. */
  connect?: boolean
  /** A pinned API version for its snapshot events. */
  apiVersion?: string
}

/** One way to register a webhook endpoint: a v2 event destination or a v1 webhook endpoint. */
export interface EndpointKind {
  readonly name: string
  make(stripe: Stripe, options?: EndpointOptions): Promise<{ id: string; secret: string }>
  setEvents(stripe: Stripe, id: string, types: string[]): Promise<void>
  setDisabled(stripe: Stripe, id: string, disabled: boolean): Promise<void>
  del(stripe: Stripe, id: string): Promise<void>
}

const v2Kind: EndpointKind = {
  name: 'v2 event destination',
  make: (stripe, { url, enabled_events, connect, apiVersion } = {}) =>
    destination(stripe, {
      ...(url === undefined ? {} : { url }),
      ...(enabled_events === undefined ? {} : { enabled_events }),
      ...(connect === true ? { events_from: ['@accounts'] } : {}),
      ...(apiVersion === undefined ? {} : { snapshot_api_version: apiVersion }),
    }),
  async setEvents(stripe, id, types) {
    await stripe.v2.core.eventDestinations.update(id, { enabled_events: types })
  },
  async setDisabled(stripe, id, disabled) {
    await (disabled ? stripe.v2.core.eventDestinations.disable(id) : stripe.v2.core.eventDestinations.enable(id))
  },
  async del(stripe, id) {
    await stripe.v2.core.eventDestinations.del(id)
  },
}

const v1Kind: EndpointKind = {
  name: 'v1 webhook endpoint',
  async make(stripe, { url = 'https://hooks.example.test/snapshot', enabled_events = ['*'], connect, apiVersion } = {}) {
    const e = await stripe.webhookEndpoints.create({
      url,
      enabled_events: enabled_events as Stripe.WebhookEndpointCreateParams.EnabledEvent[],
      ...(connect === undefined ? {} : { connect }),
      ...(apiVersion === undefined ? {} : { api_version: apiVersion as Stripe.WebhookEndpointCreateParams.ApiVersion }),
    })
    return { id: e.id, secret: e.secret ?? '' }
  },
  async setEvents(stripe, id, types) {
    await stripe.webhookEndpoints.update(id, { enabled_events: types as Stripe.WebhookEndpointUpdateParams.EnabledEvent[] })
  },
  async setDisabled(stripe, id, disabled) {
    await stripe.webhookEndpoints.update(id, { disabled })
  },
  async del(stripe, id) {
    await stripe.webhookEndpoints.del(id)
  },
}

/** Both kinds, for `describe.each`: the delivery engine treats them alike. */
export const ENDPOINT_KINDS: readonly EndpointKind[] = [v2Kind, v1Kind]
