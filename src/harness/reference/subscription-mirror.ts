import { verifySignature } from '#domain/index.js'
import { headerNames } from '#kernel/index.js'
import type { FlowClientEnv } from '../flows/flow-run.js'
import type { SubscriptionMirror, SubscriptionMirrorFactory } from '../flows/mirror-subject.js'
import { ENTITLED_STATUSES, type MirroredSubscription, mirroredFields } from '../flows/subscription-fields.js'
import { refuseArgument } from '../refuse-argument.js'

/** Mistakes a subscription mirror can make, each off in the reference. */
export interface SubscriptionMirrorFlaws {
  /** Stores each event's `data.object` as it arrives instead of reading the subscription: a late older update wins. */
  readonly lastDeliveredWins?: boolean
  /** Stores `data.object` when the event's `created` is not older than the stored one's: ties let an older state back. */
  readonly createdTies?: boolean
  /** Ignores `customer.subscription.deleted`. */
  readonly ignoreDeleted?: boolean
  /** Counts a `past_due` subscription as paid for (the payment failure never reaches the gate). */
  readonly pastDueKeepsAccess?: boolean
  /** Applies seat changes as deltas from `previous_attributes`, without deduplicating events. */
  readonly seatDeltas?: boolean
  /** Never stores `cancel_at_period_end`. */
  readonly ignoreCancelAtPeriodEnd?: boolean
  /** Grants access to `active` only, not `trialing`. */
  readonly trialDenied?: boolean
  /** Revokes access as soon as a cancellation at period end is scheduled. */
  readonly revokeAtPeriodEndFlag?: boolean
  /** Copies only `status` from `customer.subscription.updated` (plan, seats and period kept from creation). */
  readonly statusOnly?: boolean
  /** Reads the period end from the subscription's top level, where older API versions kept it. */
  readonly topLevelPeriodEnd?: boolean
  /** Stores the event's `data.object` when its read of the subscription fails (instead of answering 5xx): a late older update wins then. */
  readonly payloadOnFailedRead?: boolean
  /** Keeps its table and the events it processed in memory only: a redeploy forgets them. */
  readonly memoryOnly?: boolean
  /** Sends the welcome email again whenever a subscription turns `active` (a trial converting, a renewal recovering). */
  readonly welcomeOnActivation?: boolean
  /** Throws on the events it has no handler for (the invoice events): answered 500, retried for days. */
  readonly refusesOtherEvents?: boolean
  /** Writes a subscription event's payload to its table before checking the signature (then refuses a bad one). */
  readonly writesBeforeVerifying?: boolean
  /** Remembers whom it welcomed in memory only (its table in the database): after a redeploy the next event welcomes again. */
  readonly welcomeInMemory?: boolean
  /** Grants access to an `incomplete` subscription too (its first payment failed). */
  readonly grantsIncomplete?: boolean
  /** Verifies with the newest secret it read at start-up and compares only the header's first `v1`. */
  readonly firstSignatureOnly?: boolean
  /** Welcomes on each `customer.subscription.created` it has not processed (by event id), not once per subscription. */
  readonly welcomePerCreatedEvent?: boolean
  /** Takes `customer.subscription.trial_will_end` for the trial's end: no access for the customer until an invoice is paid. */
  readonly trialWillEndEndsTrial?: boolean
  /** Grants access to a `paused` subscription too ("a pause only stops the billing"). */
  readonly grantsPaused?: boolean
}

/** What a mirror promises beyond the default access (`active`, `trialing`). */
export interface SubscriptionMirrorPolicy {
  /** How long after its current period started a `past_due` subscription keeps access. */
  readonly pastDueGraceMs?: number
}

type Json = Record<string, unknown>
interface Event {
  readonly id: string
  readonly type: string
  readonly created: number
  readonly data: { readonly object: Json; readonly previous_attributes?: Json }
}

function firstQuantity(items: unknown): number | undefined {
  const q = ((items as { data?: Json[] } | undefined)?.data ?? [])[0]?.quantity
  return typeof q === 'number' ? q : undefined
}

/** What one mirror keeps: its table of subscriptions and the events it has processed. */
interface MirrorState {
  readonly env: FlowClientEnv
  readonly flaws: SubscriptionMirrorFlaws
  readonly policy: SubscriptionMirrorPolicy
  readonly rows: Record<string, MirroredSubscription>
  /** Start of each subscription's current period (Unix seconds), for a past_due grace. */
  readonly periodStart: Record<string, number>
  /** The newest `created` stored per subscription (for the flaws that store the payload). */
  readonly created: Record<string, number>
  readonly seen: Set<string>
  /** Subscriptions welcomed by this instance (the welcome-in-memory flaw's only record of them). */
  readonly welcomed: Set<string>
  /** Customers told their trial will end, not yet paid (the trial-will-end flaw's "trial over"). */
  readonly trialOver: Set<string>
  /** The newest signing secret when this instance started (the first-signature flaw's only one). */
  readonly bootSecret: string | undefined
}

const ROW = 'mirror:row:'
const CREATED = 'mirror:created:'
const SEEN = 'mirror:seen:'
const PERIOD = 'mirror:period:'

/** Writes a subscription's row (and newest `created`) to the app's database, unless it keeps memory only. */
function persist(state: MirrorState, id: string): void {
  if (state.flaws.memoryOnly) return
  const row = state.rows[id]
  if (row !== undefined) void state.env.store.set(`${ROW}${id}`, { ...row })
  const created = state.created[id]
  if (created !== undefined) void state.env.store.set(`${CREATED}${id}`, created)
  const start = state.periodStart[id]
  if (start !== undefined) void state.env.store.set(`${PERIOD}${id}`, start)
}

/** Loads what an earlier deploy wrote to the database into the new instance's memory. */
async function load(state: MirrorState): Promise<void> {
  if (state.flaws.memoryOnly) return
  const { store } = state.env
  for (const key of await store.keys(ROW))
    state.rows[key.slice(ROW.length)] = (await store.get(key)) as unknown as MirroredSubscription
  for (const key of await store.keys(CREATED)) state.created[key.slice(CREATED.length)] = Number(await store.get(key))
  for (const key of await store.keys(SEEN)) state.seen.add(key.slice(SEEN.length))
  for (const key of await store.keys(PERIOD)) state.periodStart[key.slice(PERIOD.length)] = Number(await store.get(key))
}

/** The fields the mirror stores, as its flaws read them. */
function fields(flaws: SubscriptionMirrorFlaws, sub: Json): MirroredSubscription {
  const f = mirroredFields(sub)
  const withEnd = flaws.topLevelPeriodEnd
    ? { ...f, currentPeriodEnd: typeof sub.current_period_end === 'number' ? sub.current_period_end : null }
    : f
  return flaws.ignoreCancelAtPeriodEnd ? { ...withEnd, cancelAtPeriodEnd: false } : withEnd
}

/** Reads the subscription from the API; undefined when the read fails. */
async function read(env: FlowClientEnv, id: string): Promise<Json | undefined> {
  try {
    const res = await env.fetch(`${env.baseUrl}/v1/subscriptions/${id}`, {
      headers: { Authorization: `Bearer ${env.secretKey}` },
    })
    if (res.status !== 200) return undefined
    return (await res.json()) as Json
  } catch {
    return undefined
  }
}

/** Stores a subscription in the table (the flawed mirrors apply seat deltas or copy the status only). */
function store(state: MirrorState, event: Event, sub: Json): void {
  const { flaws, rows } = state
  const id = String(sub.id)
  const prior = rows[id]
  const unwelcomed = flaws.welcomePerCreatedEvent
    ? event.type === 'customer.subscription.created'
    : flaws.welcomeInMemory
      ? !state.welcomed.has(id)
      : prior === undefined
  state.welcomed.add(id)
  if (unwelcomed) state.env.effects.record('email.welcome', id)
  const start = ((sub.items as { data?: Json[] } | undefined)?.data ?? [])[0]?.current_period_start
  if (typeof start === 'number') state.periodStart[id] = start
  const update = prior !== undefined && event.type === 'customer.subscription.updated'
  if (flaws.seatDeltas && update) {
    const before = firstQuantity(event.data.previous_attributes?.items)
    const after = firstQuantity(sub.items)
    const next = fields(flaws, sub)
    rows[id] = {
      ...next,
      quantity: before === undefined || after === undefined ? prior.quantity : prior.quantity + after - before,
    }
  } else if (flaws.statusOnly && update) rows[id] = { ...prior, status: String(sub.status) }
  else rows[id] = fields(flaws, sub)
  persist(state, id)
}

/** Applies a subscription event; false when the subscription could not be read (answer 500: it comes again). */
async function apply(state: MirrorState, event: Event): Promise<boolean> {
  const { flaws, created } = state
  if (flaws.trialWillEndEndsTrial && event.type === 'invoice.paid') state.trialOver.delete(String(event.data.object.customer))
  if (!event.type.startsWith('customer.subscription.')) return true
  if (event.type === 'customer.subscription.deleted' && flaws.ignoreDeleted) return true
  const object = event.data.object
  if (flaws.trialWillEndEndsTrial && event.type === 'customer.subscription.trial_will_end')
    state.trialOver.add(String(object.customer))
  const id = String(object.id)
  const fromPayload = flaws.lastDeliveredWins === true || flaws.createdTies === true || flaws.seatDeltas === true
  if (fromPayload) {
    if (flaws.createdTies && event.created < (created[id] ?? 0)) return true
    created[id] = Math.max(created[id] ?? 0, event.created)
    store(state, event, object)
    return true
  }
  // The reference: whatever order the events came in, the subscription as it is now.
  const current = await read(state.env, id)
  if (current === undefined && !flaws.payloadOnFailedRead) return false
  store(state, event, current ?? object)
  return true
}

/** Access: a subscription of the customer in an entitled status. */
function hasAccess({ env, flaws, policy, rows, periodStart, trialOver }: MirrorState, customerId: string): boolean {
  if (flaws.trialWillEndEndsTrial && trialOver.has(customerId)) return false
  const grace = policy.pastDueGraceMs
  const graced = (id: string, r: MirroredSubscription) =>
    r.status === 'past_due' && grace !== undefined && env.clock.now < (periodStart[id] ?? 0) * 1000 + grace
  const entitled = flaws.trialDenied
    ? ['active']
    : flaws.pastDueKeepsAccess
      ? [...ENTITLED_STATUSES, 'past_due']
      : flaws.grantsIncomplete
        ? [...ENTITLED_STATUSES, 'incomplete']
        : flaws.grantsPaused
          ? [...ENTITLED_STATUSES, 'paused']
          : ENTITLED_STATUSES
  return Object.entries(rows).some(
    ([id, r]) =>
      r.customer === customerId &&
      (graced(id, r) || (entitled.includes(r.status) && !(flaws.revokeAtPeriodEndFlag && r.cancelAtPeriodEnd))),
  )
}

/** The flawed mirror's early write: the payload of any subscription event, signed or not. */
function optimisticWrite(state: MirrorState, raw: string): void {
  try {
    const early = JSON.parse(raw) as Event
    if (early.type.startsWith('customer.subscription.'))
      state.rows[String(early.data.object.id)] = fields(state.flaws, early.data.object)
  } catch {
    // Not an event: nothing written.
  }
}

/** The signature check: every `v1` against every secret now, or the flawed one (first `v1`, boot secret). */
function verify(state: MirrorState, raw: string, header: string | null): void {
  const { env, flaws, bootSecret } = state
  if (!flaws.firstSignatureOnly) return void verifySignature(raw, header, env.secrets(), { now: env.clock.now })
  const t = /t=(\d+)/.exec(header ?? '')?.[1] ?? '0'
  const first = /v1=([0-9a-f]+)/.exec(header ?? '')?.[1] ?? ''
  verifySignature(raw, `t=${t},v1=${first}`, bootSecret === undefined ? [] : [bootSecret], { now: env.clock.now })
}

/** Verifies the delivery on its raw body, skips an event already processed, and applies it. */
async function handle(state: MirrorState, ready: Promise<void>, req: Request): Promise<Response> {
  const { env, flaws, seen } = state
  const raw = await req.text()
  await ready
  if (flaws.writesBeforeVerifying) optimisticWrite(state, raw)
  try {
    verify(state, raw, req.headers.get(headerNames(env.prefix).signature))
  } catch {
    return new Response('bad signature', { status: 400 })
  }
  const event = JSON.parse(raw) as Event
  if (flaws.refusesOtherEvents && !event.type.startsWith('customer.subscription.'))
    throw new TypeError(`no handler for ${event.type}`)
  // The early write must be overwritten by every genuine delivery, a duplicate too: only what it
  // refuses (a forgery, an old replay) is left written.
  if (seen.has(event.id) && !flaws.seatDeltas && !flaws.writesBeforeVerifying) return new Response('duplicate')
  if (!(await apply(state, event))) return new Response('could not read the subscription', { status: 500 })
  seen.add(event.id)
  if (!flaws.memoryOnly) await env.store.set(`${SEEN}${event.id}`, true)
  const turned = event.data.previous_attributes?.status !== undefined && event.data.object.status === 'active'
  if (flaws.welcomeOnActivation && turned) env.effects.record('email.welcome', String(event.data.object.id))
  return new Response('ok')
}

/**
 * A subscription mirror with the given flaws (none: the reference). The reference verifies the
 * signature on the raw body, ignores an event it already processed, and on every subscription event
 * reads the subscription from the API and stores that (the latest state, whatever order the events
 * came in); a failed read answers 500 so the delivery comes again. Access: an `active` or
 * `trialing` subscription, or a `past_due` one within `policy.pastDueGraceMs` of its period's
 * start. A subscription new to its table gets the welcome email (`env.effects`, `email.welcome`).
 * Its table and the events it processed live in `env.store` (its database), loaded into memory
 * when it starts, so a redeploy forgets nothing (and welcomes no one twice).
 *
 * @example
 * const noDeleted = makeSubscriptionMirror({ ignoreDeleted: true })
 */
export function makeSubscriptionMirror(
  flaws: SubscriptionMirrorFlaws = {},
  policy: SubscriptionMirrorPolicy = {},
): SubscriptionMirrorFactory {
  return (env: FlowClientEnv): SubscriptionMirror => {
    refuseArgument('referenceSubscriptionMirror', 'env', env, 'object')
    refuseArgument('referenceSubscriptionMirror', 'env.secrets', env.secrets, 'function')
    const secrets = env.secrets()
    const state: MirrorState = {
      env,
      flaws,
      policy,
      rows: {},
      periodStart: {},
      created: {},
      seen: new Set(),
      welcomed: new Set(),
      trialOver: new Set(),
      bootSecret: secrets[secrets.length - 1],
    }
    const ready = load(state)
    return {
      subscriptions: () => state.rows,
      hasAccess: (customerId) => hasAccess(state, customerId),
      handler: (req) => handle(state, ready, req),
    }
  }
}

/**
 * The correct subscription mirror: verifies, deduplicates by event id, reads the subscription on
 * each of its events and gates access on `active` or `trialing`.
 *
 * @example
 * const result = await checkSubscriptionMirror(referenceSubscriptionMirror, { numRuns: 100 })
 */
export const referenceSubscriptionMirror: SubscriptionMirrorFactory = makeSubscriptionMirror()
