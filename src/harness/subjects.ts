import type { Clock } from '#kernel/clock.js'

/** One unit of usage the harness asks a reporter to send. `customer` is unique per unit, so the
 * meter totals attribute every count to exactly one unit. */
export interface Usage {
  /** Harness id of the unit (`u1`, `u2`, ...); a reporter may use it to derive its identifier. */
  readonly id: string
  readonly customer: string
  readonly value: number
}

/** What a usage reporter under test is given: the service's `fetch`, the shared clock and its setup. */
export interface UsageReporterEnv {
  /** `fetch` of the simulated service (it may reject with a `TypeError`, like a network failure). */
  readonly fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>
  /** The one virtual clock: sleep with `clock.setTimeout`, read time with `clock.now`. */
  readonly clock: Clock
  /** Base URL of the service, e.g. `https://api.service.test`. */
  readonly baseUrl: string
  /** Secret key of the account whose meter receives the usage. */
  readonly secretKey: string
  readonly eventName: string
  /** Payload keys of the meter (customer reference and value). */
  readonly customerKey: string
  readonly valueKey: string
  /** Header prefix (`Service` or `Stripe`). */
  readonly prefix: string
  /** Seeded randomness for jitter, drawn from the simulation's own stream so runs replay. */
  random(): number
}

/**
 * The user's usage reporter. `report` resolves once the service has acknowledged every unit
 * (the usage is durably sent) and rejects when the reporter gives up.
 *
 * @example
 * const factory: UsageReporterFactory = (env) => ({ async report(units) { ... } })
 */
export interface UsageReporter {
  report(units: readonly Usage[]): Promise<void>
}

/** Builds a reporter for one run. */
export type UsageReporterFactory = (env: UsageReporterEnv) => UsageReporter

/** Side effects a webhook handler performs, recorded so the harness can count them per event. */
export interface EffectLog {
  /** Records one side effect caused by event `eventId` (e.g. `email:pi_1:succeeded`). */
  record(eventId: string, effect: string): void
}

/** What a webhook handler under test is given. */
export interface WebhookHandlerEnv {
  /** Signing secrets of the destination, newest last (after a roll the old one stays 24 h). */
  secrets(): readonly string[]
  readonly clock: Clock
  readonly prefix: string
  /** Where the handler reports its side effects. */
  readonly effects: EffectLog
}

/**
 * The user's webhook handler and a view of its state. `state()` maps each object id to the status
 * the receiver believes current (what an order table or a subscription row would hold).
 *
 * @example
 * const factory: WebhookHandlerFactory = (env) => ({ handler: async (req) => new Response('ok'), state: () => ({}) })
 */
export interface WebhookSubject {
  handler(request: Request): Response | Promise<Response>
  state(): Readonly<Record<string, string>>
}

/** Builds a webhook subject for one run. */
export type WebhookHandlerFactory = (env: WebhookHandlerEnv) => WebhookSubject

/** Sleeps on a fake-timers clock. */
export function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => {
    clock.setTimeout(() => resolve(), ms)
  })
}
