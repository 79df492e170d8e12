import { eventTypes } from '#catalogue/index.js'
import { type EventsFrom, isLoopback, isThinType, ServiceError } from '#domain/index.js'
import { closestName } from '#kernel/index.js'
import type { Simulator } from '#simulator/index.js'
import { UsageError } from './usage-error.js'

/**
 * What the forwarding options ask for, as the provider's CLI takes them: `--forward-to` (snapshot
 * events of the platform, and of its connected accounts unless `--forward-connect-to` names
 * another URL), `--forward-thin-to` (thin events only) and `--forward-connect-to` (connected
 * accounts' snapshot events). Each URL is one destination with one signing secret.
 */
export interface ForwardSpec {
  /** `--forward-to`. */
  readonly url?: string | undefined
  /** `--events`: snapshot event types (all by default). */
  readonly events?: readonly string[] | undefined
  /** `--forward-thin-to`. */
  readonly thinUrl?: string | undefined
  /** `--thin-events`: thin event types (all by default). */
  readonly thinEvents?: readonly string[] | undefined
  /** `--forward-connect-to`. */
  readonly connectUrl?: string | undefined
}

/** One destination the forwarding options made, as printed and shown in `GET /__sim/state`. */
export interface ForwardDestination {
  readonly destination: string
  /** The option that made it. */
  readonly option: '--forward-to' | '--forward-thin-to' | '--forward-connect-to'
  readonly url: string
  readonly event_payload: 'snapshot' | 'thin'
  readonly events_from: readonly string[]
  readonly enabled_events: readonly string[]
  readonly signing_secret: string
}

/**
 * Checks a forwarding URL: http(s) on localhost, 127.x or [::1] (the only ones a served simulator
 * posts to).
 *
 * @example
 * loopbackUrl('--forward-to', 'http://localhost:4242/webhook') // 'http://localhost:4242/webhook'
 */
export function loopbackUrl(option: string, url: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new UsageError(`${option}: '${url}' is not an absolute URL (e.g. http://localhost:3000/webhooks)`)
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !isLoopback(parsed.hostname))
    throw new UsageError(
      `${option}: '${url}' is not an http(s) URL on localhost, 127.0.0.1 or [::1]; serve posts webhooks only to this machine`,
    )
  return url
}

/**
 * Parses an event type list (`--events`, `--thin-events`): comma-separated names or `*`, all of
 * one payload kind, since a destination takes one kind.
 *
 * @example
 * eventList('--events', 'customer.created, invoice.paid', 'snapshot') // ['customer.created', 'invoice.paid']
 */
export function eventList(option: string, text: string, payload: 'snapshot' | 'thin'): string[] {
  const list = text
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '')
  const bad = list.find((e) => e !== '*' && !/^[a-z0-9_]+(\.[a-z0-9_]+)+$/.test(e))
  if (list.length === 0 || bad !== undefined)
    throw new UsageError(
      `${option}: expected comma-separated event types (or *), e.g. customer.created,invoice.paid; got '${bad ?? text}'`,
    )
  const wrong = list.find((e) => e !== '*' && isThinType(e) !== (payload === 'thin'))
  if (wrong !== undefined)
    throw new UsageError(
      payload === 'snapshot'
        ? `${option}: '${wrong}' is a thin event type; thin events go to their own URL: --forward-thin-to <url> --thin-events ${wrong}`
        : `${option}: '${wrong}' is a snapshot event type; choose snapshot events with --events`,
    )
  const known = eventTypes()[payload]
  const unknown = list.find((e) => e !== '*' && !known.has(e))
  if (unknown !== undefined) {
    const near = closestName(unknown, [...known])
    throw new UsageError(
      `${option}: '${unknown}' is not an event type the provider sends${near === undefined ? '' : `; did you mean '${near}'?`}`,
    )
  }
  return list
}

/** The raw forwarding options as `parseArgs` gives them. */
export interface ForwardValues {
  readonly 'forward-to'?: string | undefined
  readonly events?: string | undefined
  readonly 'forward-thin-to'?: string | undefined
  readonly 'thin-events'?: string | undefined
  readonly 'forward-connect-to'?: string | undefined
}

/**
 * Checks the forwarding options; undefined when none is given.
 *
 * @example
 * forwardOptions({ 'forward-to': 'http://localhost:4242/webhook', events: 'invoice.paid' })
 * // { url: 'http://localhost:4242/webhook', events: ['invoice.paid'] }
 */
export function forwardOptions(values: ForwardValues): ForwardSpec | undefined {
  const url = values['forward-to']
  const thinUrl = values['forward-thin-to']
  const connectUrl = values['forward-connect-to']
  if (values.events !== undefined && url === undefined && connectUrl === undefined)
    throw new UsageError('--events needs --forward-to <url> (or --forward-connect-to <url>)')
  if (values['thin-events'] !== undefined && thinUrl === undefined)
    throw new UsageError('--thin-events needs --forward-thin-to <url>')
  if (url === undefined && thinUrl === undefined && connectUrl === undefined) return undefined
  return {
    ...(url === undefined ? {} : { url: loopbackUrl('--forward-to', url) }),
    ...(values.events === undefined ? {} : { events: eventList('--events', values.events, 'snapshot') }),
    ...(thinUrl === undefined ? {} : { thinUrl: loopbackUrl('--forward-thin-to', thinUrl) }),
    ...(values['thin-events'] === undefined ? {} : { thinEvents: eventList('--thin-events', values['thin-events'], 'thin') }),
    ...(connectUrl === undefined ? {} : { connectUrl: loopbackUrl('--forward-connect-to', connectUrl) }),
  }
}

interface Plan {
  readonly option: ForwardDestination['option']
  readonly url: string
  readonly payload: 'snapshot' | 'thin'
  readonly from: EventsFrom[]
  readonly events: readonly string[]
}

function plans(spec: ForwardSpec): Plan[] {
  const snapshot = spec.events === undefined || spec.events.includes('*') ? ['*'] : spec.events
  const out: Plan[] = []
  // As the provider's CLI: connected accounts' events go to --forward-to unless another URL takes them.
  const connectApart = spec.connectUrl !== undefined && spec.connectUrl !== spec.url
  if (spec.url !== undefined)
    out.push({
      option: '--forward-to',
      url: spec.url,
      payload: 'snapshot',
      from: connectApart ? ['@self'] : ['@self', '@accounts'],
      events: snapshot,
    })
  if (spec.connectUrl !== undefined && connectApart)
    out.push({ option: '--forward-connect-to', url: spec.connectUrl, payload: 'snapshot', from: ['@accounts'], events: snapshot })
  if (spec.thinUrl !== undefined) {
    const thin = spec.thinEvents === undefined || spec.thinEvents.includes('*') ? ['*'] : spec.thinEvents
    out.push({ option: '--forward-thin-to', url: spec.thinUrl, payload: 'thin', from: ['@self'], events: thin })
  }
  return out
}

/**
 * Creates the forwarding destinations on the platform in test mode: one per URL, each with its own
 * signing secret (an app holds one secret per endpoint). A simulator loaded from `--state` keeps
 * the destinations the saved run made: those are reused, with their secrets.
 *
 * @example
 * const [hook] = setUpForwarding(sim, { url: 'http://localhost:4242/webhook' })
 * hook.signing_secret // 'whsec_...'
 */
export function setUpForwarding(sim: Simulator, spec: ForwardSpec): ForwardDestination[] {
  const scope = { account: sim.platform.id, mode: 'test' as const }
  const made: ForwardDestination[] = []
  for (const plan of plans(spec)) {
    const name = `service-sim serve ${plan.option}`
    const forwarded = (d: { id: string; url: string; enabledEvents: Iterable<string>; eventsFrom: Iterable<string> }) =>
      made.push({
        destination: d.id,
        option: plan.option,
        url: d.url,
        event_payload: plan.payload,
        events_from: [...d.eventsFrom],
        enabled_events: [...d.enabledEvents],
        signing_secret: sim.admin.signingSecrets(d.id)[0] ?? '',
      })
    const existing = sim.service.destinations.list(scope).find((d) => d.name === name && d.url === plan.url)
    if (existing !== undefined) {
      forwarded(existing)
      continue
    }
    try {
      forwarded(
        sim.service.destinations.create(scope, {
          name,
          type: 'webhook_endpoint',
          event_payload: plan.payload,
          events_from: plan.from,
          enabled_events: [...plan.events],
          webhook_endpoint: { url: plan.url },
        }),
      )
    } catch (error) {
      if (error instanceof ServiceError) throw new UsageError(`${plan.option}: ${error.message}`)
      throw error
    }
  }
  return made
}
