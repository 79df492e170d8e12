import { RESEND_WINDOW_CLI_MS, RESEND_WINDOW_DASHBOARD_MS } from '#catalogue/rules.js'
import { headerNames } from '#kernel/header-names.js'
import { LayeredMap } from '#kernel/layered-map.js'
import { fromPlain, toPlain } from '#kernel/plain.js'
import type { Task } from '#kernel/scheduler.js'
import type { Accounts } from '../accounts/accounts.js'
import type { Destination } from '../destinations/destination.js'
import type { Destinations } from '../destinations/destinations.js'
import { isOrganisationDestination, routes } from '../destinations/routing.js'
import { ORGANISATION_NO_INFLUENCE, SYNCHRONOUS_TYPES } from '../destinations/rules.js'
import type { StoredEvent } from '../events/event.js'
import type { EventStore } from '../events/event-store.js'
import { type DeliveryFaultHookDecision, type FaultHooks, noFaultHooks } from '../faults/fault-hooks.js'
import type { Kernel } from '../kernel.js'
import type { Scope } from '../mode.js'
import { invalidRequest, resourceMissing, tableError } from '../service-error.js'
import type { AttemptTrigger, DeliveryAttempt, DeliveryRecord } from './delivery-record.js'
import { type DeliveryFaults, noFaults } from './faults.js'
import { untilIdle } from './idle.js'
import { deliveryBody } from './payload.js'
import { nextRetryAt, scheduleSpanMs } from './retry-policy.js'
import { signatureHeader } from './signature.js'
import { type DeliveryTransport, type TransportRequest, type TransportResult, unreachableTransport } from './transport.js'

const DAY = 24 * 60 * 60 * 1000
/** Manual resend windows after the event's creation. */
export const RESEND_WINDOW_MS = { dashboard: RESEND_WINDOW_DASHBOARD_MS, cli: RESEND_WINDOW_CLI_MS } as const
/** A receiver slower than this (virtual ms) has timed out. */
export const DELIVERY_TIMEOUT_MS = 10_000
/** Synchronous events (issuing authorisations) wait at most this long for the answer. */
export const SYNC_TIMEOUT_MS = 2_000
/** The type of the event `ping` sends. */
export const PING_TYPE = 'v2.core.event_destination.ping'
/**
 * Default age of a delivery an attacker replays: past the usual 5-minute signature tolerance.
 *
 * @example
 * service.delivery.replay({ minAgeMs: REPLAY_MIN_AGE_MS })
 */
export const REPLAY_MIN_AGE_MS = 6 * 60_000

/** The result of a synchronous event: delivered while the triggering action waits. */
export interface SyncOutcome {
  readonly event: StoredEvent
  /** True when a receiver answered 2xx with `{ "approved": true }`. */
  readonly approved: boolean
  readonly records: DeliveryRecord[]
}

export interface DeliveryFilter {
  event?: string
  destination?: string
  status?: DeliveryRecord['status']
}

/**
 * Webhook delivery: routes every new event to the destinations that take it, POSTs it signed
 * through the transport, records each attempt and schedules retries on the kernel scheduler
 * (live: exponential backoff within 3 days; test: 3 retries over about 3 hours). A retry that falls
 * due while its destination is disabled or deleted is cancelled.
 *
 * @example
 * service.delivery.useTransport(transport)
 * service.delivery.records({ event: 'evt_1' }) // [{ status: 'Pending', attempts: [...], nextAttemptAt }]
 */
export interface Delivery {
  /** Fault knobs (duplicates, reordering, redundant events); all off by default. */
  readonly faults: DeliveryFaults
  useTransport(transport: DeliveryTransport): void
  records(filter?: DeliveryFilter): DeliveryRecord[]
  record(eventId: string, destinationId: string): DeliveryRecord | undefined
  /**
   * Manual resend (dashboard: 15 days, cli: 30 days); never cancels automatic retries. Throws a
   * ServiceError at once when refused; the returned promise resolves with the attempt.
   */
  resend(eventId: string, destinationId: string, via: 'dashboard' | 'cli', scope?: Scope): Promise<DeliveryAttempt>
  /** Sends a `v2.core.event_destination.ping` event to one destination. */
  ping(scope: Scope, destinationId: string): StoredEvent
  /** Delivers a synchronous event to its destinations now and decides from their answers. */
  deliverSync(event: StoredEvent): Promise<SyncOutcome>
  /**
   * An attacker's replay: the oldest signed delivery sent so far (whose headers the receiver read)
   * is POSTed again, body and signature header unchanged, once it is `minAgeMs` old (default
   * `REPLAY_MIN_AGE_MS`). Traced as `delivery.replay`; no delivery record changes. False when
   * nothing signed was sent yet.
   */
  replay(options?: { minAgeMs?: number }): boolean
}

export function createDelivery(
  kernel: Kernel,
  events: EventStore,
  destinations: Destinations,
  accounts: Accounts,
  faultHooks: FaultHooks = noFaultHooks,
): Delivery {
  const { scheduler, trace, clock } = kernel
  const names = headerNames(kernel.prefix)
  const faults = noFaults()
  const faultRng = () => kernel.rng.stream('delivery-faults')
  const retryRng = kernel.rng.stream('delivery-retries')
  const byKey = new Map<string, DeliveryRecord>()
  const ordered: DeliveryRecord[] = []
  // Events by id, for what looks an event up again: those with a delivery record (their attempts)
  // and, from the first lookup of any other event (a resend) on, every event. A run with no
  // destination (a load test of creates) then adds nothing to a map of every event.
  let eventsById = new LayeredMap<string, StoredEvent>()
  let indexesAll = false
  function lookupEvent(id: string): StoredEvent | undefined {
    const found = eventsById.get(id)
    if (found !== undefined || indexesAll) return found
    for (const e of events.all()) eventsById.set(e.id, e)
    indexesAll = true
    return eventsById.get(id)
  }
  // A twin is itself never twinned, so one change yields at most two events.
  let emittingTwin = false
  let transport: DeliveryTransport = unreachableTransport
  // The first signed request a receiver read: what an attacker who captured traffic replays.
  let captured: { r: DeliveryRecord; url: string; body: string; headers: Record<string, string>; at: number } | undefined

  const key = (eventId: string, destinationId: string) => `${eventId}|${destinationId}`
  // A no-op task at the latest time the retry schedule can reach: `clock.runToLastAsync()` then
  // runs the whole schedule, including retries scheduled only after earlier attempts fail.
  const horizons = new Map<DeliveryRecord, Task>()

  function settleHorizon(r: DeliveryRecord): void {
    const h = horizons.get(r)
    if (h === undefined) return
    scheduler.cancel(h)
    horizons.delete(r)
  }

  function newRecord(event: StoredEvent, d: Destination): DeliveryRecord {
    const r: DeliveryRecord = {
      eventId: event.id,
      eventType: event.type,
      destinationId: d.id,
      url: d.url,
      mode: d.mode,
      status: 'Pending',
      attempts: [],
      nextAttemptAt: null,
      retries: 0,
      firstAttemptAt: undefined,
      influencesOutcome: !(isOrganisationDestination(d) && ORGANISATION_NO_INFLUENCE.has(event.type)),
      cancelled: undefined,
    }
    byKey.set(key(event.id, d.id), r)
    ordered.push(r)
    eventsById.set(event.id, event)
    return r
  }

  interface AttemptArgs {
    readonly event: string
    readonly destination: string
    readonly fault: DeliveryFaultHookDecision | undefined
  }
  // Pending attempts are data (ids and the fault decision), so a snapshot carries them; one kind
  // per trigger keeps the labels the trace reports for a failed task.
  const attemptKinds = new Map(
    (['automatic', 'retry', 'duplicate', 'ping'] as const).map((trigger) => [
      trigger,
      scheduler.define<AttemptArgs>(`delivery.${trigger}`, (a) => {
        const r = byKey.get(key(a.event, a.destination)) as DeliveryRecord
        const event = lookupEvent(a.event) as StoredEvent
        const work = attempt(r, event, trigger, a.fault)
        if (work === undefined) return
        // A slowed attempt waits on the clock whatever the receiver: settle() must not wait for it.
        return transport.waitsOnClock(r.url) || (a.fault?.slowMs ?? 0) > 0 ? untilIdle(work) : work
      }),
    ]),
  )
  const horizonTask = scheduler.define<{ event: string; destination: string }>('delivery.horizon', () => {}, {
    restored: (task, a) => horizons.set(byKey.get(key(a.event, a.destination)) as DeliveryRecord, task),
  })

  interface Captured {
    readonly event: string
    readonly destination: string
    readonly url: string
    readonly body: string
    readonly headers: Record<string, string>
    readonly at: number
  }

  const saveDelivery = () =>
    toPlain({
      records: ordered,
      captured: captured === undefined ? null : capturedArgs(captured),
      faults: { ...faults },
    })
  kernel.state.register('delivery', {
    save: saveDelivery,
    // A fork takes the event index as it is instead of rebuilding it from the event store.
    copy: () => ({ saved: saveDelivery(), eventsById: eventsById.fork(), indexesAll }),
    loadCopy(data) {
      const copied = data as { saved: unknown; eventsById: LayeredMap<string, StoredEvent>; indexesAll: boolean }
      loadDelivery(copied.saved, copied.eventsById, copied.indexesAll)
    },
    // Every event this area saw came from the event store (loaded first): the index starts empty
    // and is built from the store on the first lookup.
    load: (data) => loadDelivery(data, new LayeredMap(), false),
  })
  function loadDelivery(data: unknown, index: LayeredMap<string, StoredEvent>, indexesEvery: boolean): void {
    const saved = fromPlain<{
      records: DeliveryRecord[]
      captured: Captured | null
      faults: DeliveryFaults
    }>(data)
    byKey.clear()
    ordered.length = 0
    horizons.clear()
    for (const r of saved.records) {
      byKey.set(key(r.eventId, r.destinationId), r)
      ordered.push(r)
    }
    eventsById = index
    indexesAll = indexesEvery
    const c = saved.captured
    captured =
      c === null
        ? undefined
        : {
            r: byKey.get(key(c.event, c.destination)) as DeliveryRecord,
            url: c.url,
            body: c.body,
            headers: c.headers,
            at: c.at,
          }
    Object.assign(faults, saved.faults)
  }

  function capturedArgs(c: NonNullable<typeof captured>): Captured {
    return { event: c.r.eventId, destination: c.r.destinationId, url: c.url, body: c.body, headers: c.headers, at: c.at }
  }

  function schedule(
    r: DeliveryRecord,
    _event: StoredEvent,
    due: number,
    trigger: 'automatic' | 'retry' | 'duplicate' | 'ping',
    fault?: DeliveryFaultHookDecision,
  ): Task {
    if (trigger === 'automatic' || trigger === 'retry') r.nextAttemptAt = due
    const kind = attemptKinds.get(trigger) as NonNullable<ReturnType<typeof attemptKinds.get>>
    return kind.at(due, { event: r.eventId, destination: r.destinationId, fault })
  }

  interface Sent {
    readonly attempt: DeliveryAttempt
    readonly body: string
  }

  /**
   * POSTs once and records the attempt. Synchronous when the transport answers at once (an
   * in-process receiver that returns a Response without spending virtual time), so long retry
   * runs allocate no promise per attempt; otherwise a promise, raced against the time-out.
   */
  function send(
    r: DeliveryRecord,
    event: StoredEvent,
    d: Destination,
    trigger: AttemptTrigger,
    timeoutMs: number,
    fault?: DeliveryFaultHookDecision,
  ): Sent | Promise<Sent> {
    if (fault?.fail === true) {
      return record(r, trigger, clock.now, {
        kind: 'connect_error',
        message: 'Unable to connect: the receiver is unreachable (injected fault).',
      })
    }
    const payload = deliveryBody(event, trigger === 'ping' ? 'thin' : d.eventPayload, d.snapshotApiVersion)
    const at = clock.now
    // Headers (an HMAC per active secret) and the abort signal are built only when the transport
    // reads them: a receiver that never looks at the request costs neither.
    let headers: Record<string, string> | undefined
    let controller: AbortController | undefined
    const request: TransportRequest = {
      url: d.url,
      body: payload,
      timeoutMs,
      badCertificate: d.badCertificate,
      get headers() {
        headers ??= {
          'Content-Type': 'application/json; charset=utf-8',
          'User-Agent': names.webhookUserAgent,
          [names.signature]: signatureHeader(payload, destinations.activeSecrets(d), Math.floor(at / 1000), {
            test: d.mode === 'test',
          }),
        }
        return headers
      },
      get signal() {
        controller ??= new AbortController()
        return controller.signal
      },
    }
    const slowMs = fault?.slowMs ?? 0
    let answer: TransportResult | Promise<TransportResult>
    if (slowMs > 0) {
      // A slow network: the receiver gets the request later; the time-out still counts from `at`.
      answer = new Promise<TransportResult>((resolve) => {
        scheduler.at(at + slowMs, 'delivery.slow', () => {
          const late = post(request)
          resolve(late)
          // Tracked, so settle() and advance() let the receiver answer before the clock moves on.
          if (late instanceof Promise) return transport.waitsOnClock(request.url) ? untilIdle(late) : late
        })
      })
    } else answer = post(request)
    if (captured === undefined && headers !== undefined) captured = { r, url: d.url, body: payload, headers, at }
    if (!(answer instanceof Promise)) return record(r, trigger, at, answer)
    return race(
      answer,
      at,
      timeoutMs,
      () => controller?.abort(),
      (result) => record(r, trigger, at, result),
    )
  }

  function post(request: TransportRequest): TransportResult | Promise<TransportResult> {
    try {
      return transport.post(request)
    } catch (error) {
      return { kind: 'connect_error', message: (error as Error).message }
    }
  }

  /**
   * Races a pending answer against the time-out on the virtual clock; `finish` runs as soon as one
   * wins (before the clock can move on), so durations are exact.
   */
  function race<T>(
    answer: Promise<TransportResult>,
    at: number,
    timeoutMs: number,
    abort: () => void,
    finish: (result: TransportResult) => T,
  ): Promise<T> {
    return (async () => {
      let done = false
      const settled = answer.then(
        (x) => {
          done = true
          return x
        },
        (error: unknown): TransportResult => {
          done = true
          return { kind: 'connect_error', message: (error as Error).message }
        },
      )
      // Receivers that answer without spending virtual time need no time-out task.
      for (let i = 0; i < 16 && !done; i++) await null
      if (done) return finish(await settled)
      let expire!: (x: TransportResult) => void
      const expired = new Promise<TransportResult>((resolve) => {
        expire = resolve
      })
      const timer = scheduler.at(at + timeoutMs, 'delivery.timeout', () => {
        abort()
        expire({ kind: 'timeout', message: `No answer within ${timeoutMs} ms.` })
      })
      const result = await Promise.race([settled, expired])
      scheduler.cancel(timer)
      return finish(result)
    })()
  }

  function record(r: DeliveryRecord, trigger: AttemptTrigger, at: number, result: TransportResult): Sent {
    const ok = result.kind === 'response' && result.status >= 200 && result.status < 300
    const attemptRecord: DeliveryAttempt = {
      at,
      trigger,
      outcome: ok ? 'delivered' : result.kind === 'response' ? 'http_error' : result.kind,
      status: result.kind === 'response' ? result.status : null,
      durationMs: clock.now - at,
      ...(result.kind === 'response' ? {} : { message: result.message }),
    }
    r.attempts.push(attemptRecord)
    return { attempt: attemptRecord, body: result.kind === 'response' ? result.body : '' }
  }

  /** One trace entry per attempt, written once its consequences (status, next attempt) are known. */
  function traceAttempt(r: DeliveryRecord, a: DeliveryAttempt): void {
    trace.append('delivery.attempt', {
      event: r.eventId,
      destination: r.destinationId,
      trigger: a.trigger,
      attempt: r.attempts.length,
      outcome: a.outcome,
      status: a.status,
      duration: a.durationMs,
      delivery: r.status,
      next: r.nextAttemptAt,
    })
  }

  /** Awaits a maybe-synchronous value without a promise when it is already there. */
  function then<T, U>(value: T | Promise<T>, next: (v: T) => U): U | Promise<Awaited<U>> {
    return value instanceof Promise ? (value.then(next) as Promise<Awaited<U>>) : next(value)
  }

  function stopAutomatic(r: DeliveryRecord, reason: string): void {
    r.nextAttemptAt = null
    r.cancelled = reason
    if (r.status === 'Pending') r.status = 'Failed'
    trace.append('delivery.cancelled', { event: r.eventId, destination: r.destinationId, reason })
  }

  /** Asks the fault hooks it was given about automatic attempt `n` of `r` (nothing when none). */
  function decide(r: DeliveryRecord, n: number): DeliveryFaultHookDecision | undefined {
    return faultHooks.deliveryFault?.({
      event: r.eventId,
      destination: r.destinationId,
      type: r.eventType,
      attempt: n,
    })
  }

  function attempt(
    r: DeliveryRecord,
    event: StoredEvent,
    trigger: AttemptTrigger,
    fault?: DeliveryFaultHookDecision,
  ): void | Promise<void> {
    const d = destinations.find(r.destinationId)
    const automatic = trigger === 'automatic' || trigger === 'retry'
    if (d === undefined || d.deleted || (d.status !== 'enabled' && trigger !== 'ping')) {
      if (automatic) {
        stopAutomatic(r, d === undefined || d.deleted ? 'destination_deleted' : 'destination_disabled')
        settleHorizon(r)
      }
      return
    }
    if (automatic) {
      r.nextAttemptAt = null
      r.firstAttemptAt ??= clock.now
    }
    const startedAt = clock.now
    return then(send(r, event, d, trigger, DELIVERY_TIMEOUT_MS, fault), ({ attempt: a }) => {
      if (a.outcome === 'delivered') {
        r.status = 'Delivered'
        if (automatic) {
          r.nextAttemptAt = null
          settleHorizon(r)
        }
        traceAttempt(r, a)
        return
      }
      if (!automatic) {
        traceAttempt(r, a)
        return
      }
      const due = nextRetryAt(r.mode, r.retries, r.firstAttemptAt ?? startedAt, startedAt, retryRng)
      if (due === undefined) {
        r.nextAttemptAt = null
        if (r.status !== 'Delivered') r.status = 'Failed'
        settleHorizon(r)
        traceAttempt(r, a)
        trace.append('delivery.exhausted', { event: r.eventId, destination: r.destinationId, attempts: r.attempts.length })
        return
      }
      const next = decide(r, r.retries + 2)
      const at = due + (next?.delayMs ?? 0)
      r.retries++
      schedule(r, event, at, 'retry', next)
      if (next?.duplicate === true) schedule(r, event, at, 'duplicate')
      traceAttempt(r, a)
    })
  }

  function fanOut(event: StoredEvent): void {
    if (indexesAll) eventsById.set(event.id, event)
    if (event.type === PING_TYPE || SYNCHRONOUS_TYPES.has(event.type)) return
    if (faults.redundantEventRate > 0 && !emittingTwin && faultRng().chance(faults.redundantEventRate)) {
      queueMicrotask(() => emitTwin(event))
    }
    for (const d of destinations.all()) {
      if (!routes(d, event, accounts)) continue
      const r = newRecord(event, d)
      // Scheduled or injected delivery faults of the harness (one-shot, traced as `fault` there).
      const forced = decide(r, 1)
      const delay = (faults.reorderWindowMs > 0 ? faultRng().int(faults.reorderWindowMs) : 0) + (forced?.delayMs ?? 0)
      if (delay > 0) trace.append('delivery.fault', { kind: 'reorder', event: event.id, destination: d.id, delay })
      trace.append('delivery.scheduled', { event: event.id, destination: d.id, due: clock.now + delay })
      schedule(r, event, clock.now + delay, 'automatic', forced)
      horizons.set(r, horizonTask.at(clock.now + delay + scheduleSpanMs(d.mode), { event: event.id, destination: d.id }))
      if (forced?.duplicate === true || (faults.duplicateRate > 0 && faultRng().chance(faults.duplicateRate))) {
        const extra = faults.reorderWindowMs > 0 ? faultRng().int(faults.reorderWindowMs) : 0
        trace.append('delivery.fault', { kind: 'duplicate', event: event.id, destination: d.id, delay: extra })
        schedule(r, event, clock.now + extra, 'duplicate')
      }
    }
  }

  function emitTwin(event: StoredEvent): void {
    const body = event.body as Record<string, any>
    emittingTwin = true
    let twin: StoredEvent
    try {
      twin =
        event.kind === 'snapshot'
          ? events.snapshot({
              type: event.type,
              account: event.account,
              mode: event.mode,
              object: body.data?.object ?? {},
              ...(body.data?.previous_attributes ? { previousAttributes: body.data.previous_attributes } : {}),
            })
          : events.thin({
              type: event.type,
              account: event.account,
              mode: event.mode,
              ...(body.related_object ? { relatedObject: body.related_object } : {}),
              data: body.data ?? {},
            })
    } finally {
      emittingTwin = false
    }
    trace.append('delivery.fault', { kind: 'redundant_event', event: event.id, twin: twin.id })
  }

  events.subscribe(fanOut)
  const replayTask = scheduler.define<Captured>('delivery.replay', replayOf)

  return {
    faults,
    useTransport(t) {
      transport = t
    },
    records(filter = {}) {
      return ordered.filter(
        (r) =>
          (filter.event === undefined || r.eventId === filter.event) &&
          (filter.destination === undefined || r.destinationId === filter.destination) &&
          (filter.status === undefined || r.status === filter.status),
      )
    },
    record: (eventId, destinationId) => byKey.get(key(eventId, destinationId)),
    resend(eventId, destinationId, via, scope) {
      // Validation throws at once (before anything is sent); the POST itself runs in the background.
      const event = lookupEvent(eventId)
      const d = destinations.find(destinationId)
      if (event === undefined || (scope !== undefined && (event.mode !== scope.mode || !visible(scope, event)))) {
        throw resourceMissing('event', eventId)
      }
      if (d === undefined || d.deleted || (scope !== undefined && (d.account !== scope.account || d.mode !== scope.mode))) {
        throw resourceMissing('webhook endpoint', destinationId, 'webhook_endpoint')
      }
      if (d.mode !== event.mode) {
        throw invalidRequest(`Event '${eventId}' and endpoint '${destinationId}' are in different modes.`, {
          param: 'webhook_endpoint',
        })
      }
      const window = RESEND_WINDOW_MS[via]
      if (clock.now - event.at > window) {
        throw tableError(
          'event_too_old',
          { id: eventId, days: window / DAY, via: via === 'cli' ? 'command line' : 'dashboard' },
          { param: 'id' },
        )
      }
      const r = byKey.get(key(eventId, destinationId)) ?? newRecord(event, d)
      const work = Promise.resolve(send(r, event, d, via, DELIVERY_TIMEOUT_MS)).then(({ attempt: a }) => {
        if (a.outcome === 'delivered') r.status = 'Delivered'
        else if (r.status === 'Pending' && r.nextAttemptAt === null && r.attempts.length === 1) r.status = 'Failed'
        traceAttempt(r, a)
        return a
      })
      scheduler.track(transport.waitsOnClock(d.url) ? untilIdle(work) : work)
      return work
    },
    ping(scope, destinationId) {
      const d = destinations.get(scope, destinationId)
      const event = events.thin({
        type: PING_TYPE,
        account: d.account,
        mode: d.mode,
        relatedObject: { id: d.id, type: 'v2.core.event_destination', url: `/v2/core/event_destinations/${d.id}` },
      })
      const r = newRecord(event, d)
      schedule(r, event, clock.now, 'ping')
      return event
    },
    async deliverSync(event) {
      if (indexesAll) eventsById.set(event.id, event)
      const targets = destinations.all().filter((d) => routes(d, event, accounts) && !isOrganisationDestination(d))
      const results = await Promise.all(
        targets.map(async (d) => {
          const r = newRecord(event, d)
          r.firstAttemptAt = clock.now
          const { attempt: a, body } = await send(r, event, d, 'synchronous', SYNC_TIMEOUT_MS)
          r.status = a.outcome === 'delivered' ? 'Delivered' : 'Failed'
          traceAttempt(r, a)
          return { r, approved: a.outcome === 'delivered' && approvedIn(body) }
        }),
      )
      const approved = results.some((x) => x.approved)
      trace.append('delivery.synchronous', { event: event.id, approved, destinations: targets.map((d) => d.id) })
      return { event, approved, records: results.map((x) => x.r) }
    },
    replay(options = {}) {
      const old = captured
      if (old === undefined) return false
      const minAgeMs = options.minAgeMs ?? REPLAY_MIN_AGE_MS
      replayTask.at(Math.max(clock.now, old.at + minAgeMs), capturedArgs(old))
      return true
    },
  }

  function replayOf(old: Captured): void | Promise<void> {
    const at = clock.now
    let controller: AbortController | undefined
    const request: TransportRequest = {
      url: old.url,
      body: old.body,
      headers: old.headers,
      timeoutMs: DELIVERY_TIMEOUT_MS,
      badCertificate: false,
      get signal() {
        controller ??= new AbortController()
        return controller.signal
      },
    }
    const done = (result: TransportResult): void => {
      const ok = result.kind === 'response' && result.status >= 200 && result.status < 300
      trace.append('delivery.replay', {
        event: old.event,
        destination: old.destination,
        age: at - old.at,
        outcome: ok ? 'delivered' : result.kind === 'response' ? 'http_error' : result.kind,
        status: result.kind === 'response' ? result.status : null,
      })
    }
    const answer = post(request)
    if (!(answer instanceof Promise)) return done(answer)
    const work = race(answer, at, DELIVERY_TIMEOUT_MS, () => controller?.abort(), done)
    return transport.waitsOnClock(old.url) ? untilIdle(work) : work
  }

  function visible(scope: Scope, event: StoredEvent): boolean {
    if (event.account === scope.account) return true
    return destinations
      .all()
      .some((d) => d.account === scope.account && d.mode === scope.mode && routes({ ...d, status: 'enabled' }, event, accounts))
  }
}

function approvedIn(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { approved?: unknown }
    return parsed.approved === true
  } catch {
    return false
  }
}
