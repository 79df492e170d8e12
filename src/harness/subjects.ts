import type { Clock } from '#kernel/index.js'
import type { DurableStore } from './durable-store.js'

/** One unit of usage the harness asks a reporter to send. Customers and values repeat (as in real
 * traffic, within the 24-hour deduplication window); the harness accounts per customer. */
export interface Usage {
  /** Harness id of the unit (`u1`, `u2`, ...), unique per run: what a reporter should derive its identifier from. */
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
  /** Base URL of the service, e.g. `https://api.service.test` (`/v1`, `/v2`, the sync `/v2/billing/meter_events`). */
  readonly baseUrl: string
  /** Base URL of the meter event stream (`/v2/billing/meter_event_stream`), e.g. `https://meter-events.service.test`. */
  readonly meterEventsUrl: string
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
  /** The run's durable key-value store (the app's database): it survives a restart of the client. */
  readonly store: DurableStore
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

/** Side effects a webhook receiver performs, recorded so the harness can count them per event. */
export interface EffectLog {
  /** Records one side effect caused by event `eventId` (e.g. `email:pi_1:succeeded`). */
  record(eventId: string, effect: string): void
  /**
   * Says that event `eventId` was acknowledged on purpose without a side effect (a type the receiver
   * does not care about), so `receivers.processed` does not flag it. Optional to call.
   */
  skip(eventId: string): void
}

/** What a webhook receiver under test is given. */
export interface WebhookReceiverEnv {
  /** Signing secrets of the destination, newest last (after a roll the old one stays 24 h). */
  secrets(): readonly string[]
  readonly clock: Clock
  readonly prefix: string
  /** Where the handler reports its side effects. */
  readonly effects: EffectLog
  /**
   * The run's durable key-value store (the app's database): it survives a restart (a redeploy
   * builds a new receiver from the factory; in-memory state is lost, the store is not).
   */
  readonly store: DurableStore
}

/** @deprecated Use `WebhookReceiverEnv` (the same type). */
export type WebhookHandlerEnv = WebhookReceiverEnv

/**
 * The user's webhook receiver: its request `handler` and a view of its state. `state()` maps each object id to the status
 * the receiver believes current (what an order table or a subscription row would hold).
 *
 * @example
 * const factory: WebhookReceiverFactory = (env) => ({ handler: async (req) => new Response('ok'), state: () => ({}) })
 */
export interface WebhookReceiver {
  handler(request: Request): Response | Promise<Response>
  /** May read the durable store (a promise), since that is where a restarted receiver keeps its rows. */
  state(): Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>
}

/** @deprecated Use `WebhookReceiver` (the same type). */
export type WebhookSubject = WebhookReceiver

/** Builds a webhook receiver for one run. */
export type WebhookReceiverFactory = (env: WebhookReceiverEnv) => WebhookReceiver

/** @deprecated Use `WebhookReceiverFactory` (the same type). */
export type WebhookHandlerFactory = WebhookReceiverFactory

/** Sleeps on a fake-timers clock. */
export function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => {
    clock.setTimeout(() => resolve(), ms)
  })
}
