/**
 * Every kind of trace entry, with the shape of its data, declared once. `trace.append(kind, data)`
 * checks `data` against its kind, and a reader narrows an entry by comparing `kind` (`e.kind ===
 * 'http'` makes `e.data.status` a number), never by parsing the kind's text.
 *
 * The kernel declares the names and shapes (plain data: strings, numbers); the layers that emit them
 * are noted per group. Adding a kind means adding it here; the trace's bytes are whatever the
 * emitter appends, so typing them changes no hash.
 *
 * @example
 * const e: TraceEntry<'delivery.attempt'> = sim.trace.filter('delivery.attempt')[0]!
 * e.data.status // number | null
 */
export interface TraceKinds {
  // simulator (the composition root)
  'simulator.created': { seed: string; start: number; prefix: string }
  /** A prepared simulation goes on with its own seed (`continueAs`, `fork(next)`). */
  'simulator.continued': { seed: string }
  'account.version': { id: string; version: string }
  /** The customer's side acted (`sim.customer`): which action, on what, and how it ended (`ok` or the error code). */
  'customer.action': { action: string; target: string; outcome: string }
  /** A scheduled task threw or rejected; the queue and the clock went on. */
  'scheduler.task_failed': { label: string; message: string }
  /** A client's own timer threw while the handler drove the shared clock. */
  'clock.timer_failed': { message: string }

  // http
  http: {
    method: string
    path: string
    operation: string | undefined
    account: string | undefined
    mode: string | undefined
    status: number
    request_id: string | null
    /** The request and response bodies. */
    request?: string
    response?: string
  }
  'http.replayed': { key: string; request_id: string }
  /** A route threw something other than a ServiceError: a simulator bug, answered 500. */
  'http.internal_error': { operation: string | null; message: string }

  // faults
  fault: { label: string; kind: string; source: string; step: number; [detail: string]: unknown }
  'faults.policy': { origin: string; rates: Readonly<Record<string, number | undefined>>; schedule: number }

  // domain: accounts, events, sessions
  'account.created': { id: string; platform: string | null | undefined }
  'account.closed': { id: string }
  'organisation.created': { id: string; accounts: readonly string[] }
  'event.emitted': { id: string; type: string; account: string; mode: string }
  'session.created': { id: string; account: string; mode: string; expires_at: number }
  'session.expired': { id: string }
  'admin.trigger': { type: string; synchronous?: true }

  // domain: limits and locks
  'limit.refused': { row: string; operation: string; account: string; mode: string }
  'lock.timeout': { object: string; operation: string; free_at: number }
  'lock.acquired': { object: string; holder: string; start: number; end: number }
  'lock.held': { object: string; until: number }

  // domain: destinations and delivery
  'destination.created': DestinationChange
  'destination.updated': DestinationChange
  'destination.deleted': DestinationChange
  'destination.enabled': DestinationChange
  'destination.disabled': DestinationChange
  'destination.secret_rolled': DestinationChange
  'destination.bad_certificate': { id: string; bad: boolean }
  'delivery.scheduled': { event: string; destination: string; due: number }
  /** An event put on an `amazon_eventbridge` destination's virtual event bus (no HTTP attempt). */
  'eventbridge.put': { event: string; destination: string; account: string; mode: string }
  'delivery.attempt': {
    event: string
    destination: string
    trigger: string
    attempt: number
    outcome: string
    status: number | null
    duration: number
    delivery: string
    next: number | null
  }
  'delivery.cancelled': { event: string; destination: string; reason: string }
  'delivery.exhausted': { event: string; destination: string; attempts: number }
  'delivery.fault':
    | { kind: 'reorder' | 'duplicate'; event: string; destination: string; delay: number }
    | { kind: 'redundant_event'; event: string; twin: string }
  'delivery.synchronous': { event: string; approved: boolean; destinations: readonly string[] }
  'delivery.replay': { event: string; destination: string; age: number; outcome: string; status: number | null }

  // domain: meters and meter events
  'meter_events.waiting': { label: string; until: number }
  'meter_events.processed':
    | { source: 'sync'; meter: string; identifier: string; accepted: number; cancelled?: number }
    | { source: 'stream'; batch: number; accepted: number; invalid: number; duplicates: number; cancelled?: number }
  /** A meter event adjustment was accepted (applied after the processing delay). */
  'meter_events.adjustment': { meter: string; identifier: string }
  /** An event left the aggregates (`processed`), or will never reach them. */
  'meter_events.cancelled': { meter?: string; identifier: string; processed: boolean }

  // domain: ledger and payments
  'ledger.posted': {
    id: string
    account: string
    mode: string
    currency: string
    amount: number
    fee: number
    type: string
    source: string | null
  }
  'ledger.available': { id: string }
  'customer.created': ObjectChange
  'customer.deleted': ObjectChange
  'product.created': ObjectChange
  'charge.attempted': ObjectChange & { status: string }
  'charge.refunded': ObjectChange & { amount: number; refund: string }
  'payment_intent.created': ObjectChange
  'payment_intent.requires_action': ObjectChange
  'payment_intent.authenticated': ObjectChange & { outcome: string }
  'off_session_payment.created': ObjectChange
  // domain (billing)
  'invoice.paid': ObjectChange
  'invoice.payment_failed': ObjectChange
  'subscription.canceled': ObjectChange
  'test_clock.advanced': ObjectChange & { frozen_time: number }
  'off_session_payment.attempt': { id: string; attempt: number; status: string }
  'off_session_payment.canceled': { id: string }

  // harness (the program runner's own records)
  'harness.receiver': { down: boolean }
  'harness.effect': { event: string; effect: string }
  'harness.skipped': { event: string }
  /** A restart (redeploy) of a subject: a new instance from its factory. */
  'harness.restart': { subject: string; reason: string; restart: number }
  /** The status of the object a thin-event race program changes, after each change. */
  'harness.thin.status': { object: string; status: string }
  'harness.forged': { forgery: string; event: string; object: string; outcome: string; status: number | null; type?: string }
  /** A dunning app accepted an invoice's failure after the provider had settled the invoice. */
  'harness.dunning.stale_failure': { event: string; invoice: string; provider: string }
  /** The app's own status of a forged delivery's object turned into the forger's claim across it. */
  'harness.forged.adopted': { event: string; object: string; claimed: string; before: string | null; provider: string | null }
  /** An attacker's delivery is being handed to a flow's app: what it records until `harness.forged` is caused by it. */
  'harness.forging': { event: string }
  /** A flow's endpoint signing secret was rolled (the app holds the old one until its next redeploy). */
  'harness.flow.roll': { destination: string }
  /** A flow's app also has a Connect endpoint (the connected accounts' events go to it alone, signed with its own secret). */
  'harness.flow.connect': { destination: string }
  'harness.usage': {
    units: readonly { id: string; customer: string; value: number }[]
    outcome: 'acked' | 'failed' | 'hung'
    error?: string
  }
  'harness.usage.totals': { customers: readonly { customer: string; count: number; sum: number }[] }
  /** One batch a reporter was asked to send in a billing run, and the virtual-time window it was sent in. */
  'harness.billing.usage': {
    units: readonly { id: string; customer: string; value: number }[]
    outcome: 'acked' | 'failed' | 'hung'
    from: number
    to: number
  }
  /** Units whose events the client cancelled (a meter event adjustment it got acknowledged). */
  'harness.billing.cancelled': { units: readonly string[] }
  /** One invoice line that billed a customer's metered usage for a period, as read at the end of a run. */
  'harness.billing.line': {
    customer: string
    invoice: string
    status: string
    start: number
    end: number
    quantity: number
    amount: number
    unitAmount: number
  }
  'harness.emitted': { event: string; object: string; status: string }
  'harness.state': { object: string; expected: string | null; actual: unknown }
  /** A billing flow's client answered an event's delivery with a 2xx (it accepted the event). */
  'harness.flow.ack': { event: string; type: unknown; object: unknown; state: unknown }
  /** A billing flow's client refused a genuine delivery (non-2xx); `failedReads`: its API reads that failed meanwhile. */
  'harness.rule.refused': { event: string; type: string; status: number; failedReads: number }
  /** An effect the app under test recorded (`env.effects.record`), with its causal context once known. */
  'harness.rule.effect': { kind: string; key: string; detail: unknown } & Readonly<Record<string, unknown>>
  /** An object's state at the end of a rule set's run (the provider's truth its rules compare with). */
  'harness.rule.final': { id: string; state: unknown }
  /** What a rule's probe recorded at a checkpoint (the app's observable state beside the provider's). */
  'harness.rule.state': { rule: string } & Readonly<Record<string, unknown>>
  /** A subscription mirror's access answer for a customer whose subscription events it all accepted. */
  'harness.mirror.access': {
    customer: string
    at: number
    granted: boolean
    /** The customer's subscriptions then: status, since when `past_due`, cancelling at period end, period start. */
    subscriptions: readonly {
      id: string
      status: string
      since: number | null
      cancelAtPeriodEnd: boolean
      periodStart: number | null
    }[]
  }
  /** A mirrored subscription beside the provider's, once its deliveries settled. */
  'harness.mirror.subscription': { id: string; provider: unknown; mirror: unknown }
  /** A dunning client told a customer that an invoice's payment failed, or that it is restored. */
  'harness.dunning.notice': { invoice: string; customer: string; event: string | null }
  'harness.dunning.restore': { invoice: string; customer: string; event: string | null }
  'harness.dunning.restrict': { customer: string; event: string | null }
  'harness.dunning.reinstate': { customer: string; event: string | null }
  'harness.dunning.standing': { customer: string; uncollectible: string[]; settled: string[] }
  /** A fulfilment client shipped, or took back, a checkout session's order; the session's state at that moment. */
  'harness.fulfil.fulfil': FulfilmentCall
  'harness.fulfil.reverse': FulfilmentCall
  /** The customer's browser landed on the fulfilment client's success page; the page's status. */
  'harness.fulfil.return': { session: string; status: number; paid: boolean }
  /** A checkout session's state at the end of a fulfilment flow. */
  'harness.fulfil.session': {
    id: string
    mode: unknown
    status: unknown
    payment_status: unknown
    /** `checkout.session.async_payment_failed` was sent for it. */
    async_failed: boolean
    /** The client accepted an event saying it is paid, or showed its success page while it was paid. */
    known: boolean
  }

  // cli (`service-sim serve` only: in-process runs never append these)
  /** A request served over HTTP: its wall arrival time (`at` is the virtual time it was served at). */
  'serve.request': {
    wall: string
    method: string
    path: string
    admin: boolean
    headers: Readonly<Record<string, string>>
    /** The request body. */
    body?: string
  }
  /** The admin API changed the fault policy at run time (rates set, or everything cleared). */
  'faults.changed': { rates: Readonly<Record<string, number | undefined>>; cleared: boolean }
}

/** A fulfilment client's order call, with the session's state when it was made. */
interface FulfilmentCall {
  session: string
  source: string | null
  status: unknown
  payment_status: unknown
  /** The provider's session was paid then (what the app could know is in the order's `harness.rule.effect`). */
  paid: boolean
}

/** An object created, changed or removed in one account and mode. */
interface ObjectChange {
  id: string
  account: string
  mode: string
}

interface DestinationChange extends ObjectChange {
  status: string
}

/** Every trace kind. */
export type TraceKind = keyof TraceKinds

/** The kinds in one dotted group, as a type: `TraceKindsIn<'delivery'>` is `'delivery.attempt' | ...`. */
export type TraceKindsIn<G extends string> = Extract<TraceKind, G | `${G}.${string}`>

/**
 * The kinds of one group as a value, listed in full (the compiler checks that none is missing or
 * foreign), for readers that handle a whole group without parsing kinds.
 *
 * @example
 * if (deliveryTraceKinds.has(e.kind)) markers.push(e)
 */
export const deliveryTraceKinds: ReadonlySet<TraceKind> = new Set(
  Object.keys({
    'delivery.scheduled': true,
    'delivery.attempt': true,
    'delivery.cancelled': true,
    'delivery.exhausted': true,
    'delivery.fault': true,
    'delivery.synchronous': true,
    'delivery.replay': true,
  } satisfies Record<TraceKindsIn<'delivery'>, true>) as TraceKindsIn<'delivery'>[],
)
