import type { TraceEntry } from '#kernel/index.js'
import { refuseNotEntries } from '../validate-input.js'
import { notGenuineDelivery } from './not-genuine-delivery.js'
import { type Violation, violation } from './violation.js'

/** Trace kinds that record what an app did (its effects), whichever property traced them. */
const EFFECT_KINDS: ReadonlySet<string> = new Set([
  'harness.effect',
  'harness.fulfil.fulfil',
  'harness.fulfil.reverse',
  'harness.dunning.notice',
  'harness.dunning.restore',
  'harness.dunning.restrict',
  'harness.dunning.reinstate',
  'harness.rule.effect',
])

const str = (v: unknown) => String(v)

/**
 * The event an effect names as its cause, whichever field the property uses for it (an effect with
 * its causal context names the event it was recorded while handling).
 */
function causeOf(e: TraceEntry): string | undefined {
  for (const field of ['cause', 'event', 'source']) {
    const v = e.data[field]
    if (typeof v === 'string') return v
    const id = (v as { id?: unknown } | null | undefined)?.id
    if (typeof id === 'string') return id
  }
  return undefined
}

/**
 * The claimed, held and provider's states, narrowed to the fields the claim changes when they are
 * lists of `field value` pairs (the mirror's), as they are otherwise (a status).
 */
function narrowed(claimed: string, before: string, provider: string): [string, string, string] {
  const pairs = (s: string) => new Map(s.split(', ').map((p) => [p.split(' ')[0] ?? '', p] as const))
  const c = pairs(claimed)
  if (c.size < 2) return [claimed, before, provider]
  const b = pairs(before)
  const p = pairs(provider)
  const changed = [...c.keys()].filter((k) => c.get(k) !== b.get(k) || c.get(k) !== p.get(k))
  const pick = (m: Map<string, string>, whole: string) =>
    m.size < 2 ? whole : changed.map((k) => m.get(k) ?? `${k} none`).join(', ')
  return [pick(c, claimed), pick(b, before), pick(p, provider)]
}

/** A forged delivery whose claim the app's own state took (`harness.forged.adopted`), with no effect needed. */
function forgeryAdopted(entries: readonly TraceEntry[], out: Violation[]): void {
  // The attacker's record follows the app's answer, so it comes after what the app did.
  const forged = new Map(entries.filter((e) => e.kind === 'harness.forged').map((e) => [str(e.data.event), e]))
  for (const e of entries) {
    if (e.kind !== 'harness.forged.adopted') continue
    const f = forged.get(str(e.data.event))
    const how = notGenuineDelivery(str(e.data.event), f, false)
    const [claimed, before, provider] = narrowed(str(e.data.claimed), str(e.data.before), str(e.data.provider))
    out.push(
      violation(
        'flow.forgery_ignored',
        `${how} made the app hold ${str(e.data.object)} as ${claimed} (it held ${before}; the provider: ${provider}): verify the signature on the raw body before acting`,
        f === undefined ? [e] : [f, e],
      ),
    )
  }
}

function forgeryEffects(entries: readonly TraceEntry[], out: Violation[]): void {
  const forged = new Map<string, TraceEntry>()
  let open: string | undefined
  const caused = new Map<string, TraceEntry[]>()
  const add = (event: string, e: TraceEntry) => caused.set(event, [...(caused.get(event) ?? []), e])
  for (const e of entries) {
    if (e.kind === 'harness.forging') open = str(e.data.event)
    else if (e.kind === 'harness.forged') {
      forged.set(str(e.data.event), e)
      open = undefined
    } else if (EFFECT_KINDS.has(e.kind)) {
      const cause = causeOf(e)
      if (open !== undefined && (cause === undefined || cause === open)) add(open, e)
      else if (cause?.startsWith('evt_forged')) add(cause, e)
    }
  }
  for (const [event, effects] of caused) {
    const f = forged.get(event)
    if (f === undefined) continue
    out.push(
      violation(
        'flow.forgery_ignored',
        `a forged delivery (${str(f.data.forgery)}: ${str(f.data.type)} about ${str(f.data.object)}, answered ${str(f.data.status ?? f.data.outcome)}) caused ${effects.length} effect(s): verify the signature on the raw body before acting`,
        [f, ...effects],
      ),
    )
  }
}

const SIGNATURE_HINT = "verify the header's every v1 signature against every secret in env.secrets(), on the raw body"

// The official clients' `constructEvent` measures a signature's age on `Date.now()` unless given
// the time received: in a run, the provider signs on the run's clock, months away from the wall's.
const WALL_CLOCK_HINT =
  "if the app checks the signature's age on its own clock (constructEvent reads Date.now() unless given receivedAt, its sixth argument), every delivery looks months old or not yet signed: pass env.clock.now as the time received"

const NEWEST_ONLY_HINT =
  'every refused attempt was signed no later than one the app had accepted before it (deliveries arrive out of order, and many are signed within one second): a check that refuses a signature not newer than the last one accepted (a home-made replay guard) refuses genuine deliveries; the tolerance and the event id already stop replays'

/** When an attempt was sent (and signed), in ms: its trace entry is written once it is answered. */
const sentAt = (e: TraceEntry) => e.at - Number(e.data.duration)

/** Whether every refused attempt was of an event an earlier attempt had delivered (a 2xx). */
function repeatsAccepted(entries: readonly TraceEntry[], refused: readonly TraceEntry[]): boolean {
  const firstAccepted = new Map<string, number>()
  for (const e of entries)
    if (e.kind === 'delivery.attempt' && e.data.outcome === 'delivered' && !firstAccepted.has(str(e.data.event)))
      firstAccepted.set(str(e.data.event), e.seq)
  return refused.every((r) => (firstAccepted.get(str(r.data.event)) ?? Number.POSITIVE_INFINITY) < r.seq)
}

/**
 * Whether every refused attempt was signed no later (to the second of the header's `t=`) than an
 * attempt the app accepted that had reached it before this one was answered, outside a secret
 * roll (where the signatures an app misses are the header's other `v1`).
 */
function signedBeforeAccepted(entries: readonly TraceEntry[], refused: readonly TraceEntry[]): boolean {
  if (entries.some((e) => e.kind === 'harness.flow.roll')) return false
  const accepted = entries.filter((e) => e.kind === 'delivery.attempt' && e.data.outcome === 'delivered')
  const second = (ms: number) => Math.floor(ms / 1000)
  return refused.every((r) =>
    accepted.some((a) => a.data.event !== r.data.event && sentAt(a) <= r.at && second(sentAt(a)) >= second(sentAt(r))),
  )
}

/**
 * What a genuine delivery refused with a 4xx most likely met, judged from the whole run: a route
 * that is not there (404, 405), an app whose signature check works (it accepted genuine deliveries
 * of other types) but which refuses the types it does not handle, or a signature check that fails.
 */
function refusalHint(entries: readonly TraceEntry[], refused: readonly TraceEntry[]): string {
  const status = Number(refused[0]?.data.status)
  if (status === 404 || status === 405)
    return `the app has no route where deliveries are posted: mount the webhook route at the path they go to (mountApp posts to /webhook unless given { webhookPath }; serve's app() forwards to url + webhookPath)`
  const connect = entries.find((e) => e.kind === 'harness.flow.connect')?.data.destination
  if (connect !== undefined && refused.every((e) => e.data.destination === connect))
    return `every refused delivery came from the Connect endpoint (the connected accounts' events, each with its account), which signs with a secret of its own: verify them against env.connectSecrets() (the platform endpoint's are env.secrets(); an app on a port is started with serveRuns' connectWebhookSecret)`
  const typeOf = new Map(entries.filter((e) => e.kind === 'event.emitted').map((e) => [str(e.data.id), str(e.data.type)]))
  const accepted = new Set<string>()
  for (const e of entries) {
    const type = e.kind === 'delivery.attempt' && e.data.outcome === 'delivered' ? typeOf.get(str(e.data.event)) : undefined
    if (type !== undefined) accepted.add(type)
  }
  const refusedTypes = [...new Set(refused.map((e) => typeOf.get(str(e.data.event))).filter((t) => t !== undefined))]
  // Nothing accepted at all is most often the header's name: the properties sign in `Service-Signature`
  // unless told `headerPrefix: 'Stripe'`, which callers of the official client's `constructEvent` need.
  if (accepted.size === 0) {
    const prefix = entries.find((e) => e.kind === 'simulator.created')?.data.prefix
    if (typeof prefix !== 'string' || prefix.toLowerCase() === 'stripe')
      return `no genuine delivery was accepted: ${WALL_CLOCK_HINT}; otherwise ${SIGNATURE_HINT}`
    return `no genuine delivery was accepted: the signature is in the \`${prefix}-Signature\` header, so an app reading Stripe-Signature needs the property run with { headerPrefix: 'Stripe' }; otherwise ${SIGNATURE_HINT}`
  }
  // Every refusal met a slow network (the attempt took a second or more): the signature was older
  // on arrival than the app's tolerance, where the provider's clients allow 300 s; unless an
  // attempt as old on arrival was accepted (a tolerance refuses by age alone).
  const slowest = Math.min(...refused.map((e) => Number(e.data.duration)))
  const acceptedAsOld = entries.some(
    (e) => e.kind === 'delivery.attempt' && e.data.outcome === 'delivered' && Number(e.data.duration) >= slowest,
  )
  if (repeatsAccepted(entries, refused))
    return `every refused delivery repeated an event the app had already accepted (a duplicate, a redelivery): answer 2xx to an event already handled, whatever the deduplication found (a 4xx is taken as a failure and retried)`
  const outOfOrder = signedBeforeAccepted(entries, refused)
  if (slowest >= 1000 && !acceptedAsOld)
    return `every refused attempt reached the app ${slowest} ms or more after it was signed (a slow network), while others were accepted: a signature tolerance shorter than that refuses genuine deliveries (the official clients default to 300 s)${outOfOrder ? `; or ${NEWEST_ONLY_HINT}` : ''}; otherwise ${SIGNATURE_HINT}`
  if (refusedTypes.length === 0 || refusedTypes.some((t) => accepted.has(t)))
    return outOfOrder ? `${NEWEST_ONLY_HINT}; otherwise ${SIGNATURE_HINT}` : SIGNATURE_HINT
  return `the app accepted genuine deliveries of other types (${[...accepted].sort().slice(0, 3).join(', ')}), so its signature check works, and refused ${refusedTypes.sort().join(', ')}: answer 2xx to every genuine event, including the types it does not handle (if its signature check does refuse these, ${SIGNATURE_HINT})`
}

/**
 * The rules every billing flow property adds over what can happen to a real app, judged on the
 * run's trace:
 *
 * - `flow.forgery_ignored`: a forged or tampered delivery (`harness.forged`) caused no effect (an
 *   effect recorded while the app handled it, or naming its event), and the app's own status of
 *   its object did not turn into the forged claim (`harness.forged.adopted`).
 * - `flow.genuine_refused`: no genuine delivery, signed by the provider with the secrets active
 *   then, was refused with a 4xx (an app holding one secret across a roll while the header carries
 *   two signatures must find its own among them).
 * - `flow.replay_refused`: no replayed delivery (a genuine one sent again with its old signature,
 *   past the tolerance) was accepted with a 2xx.
 *
 * @example
 * checkFlowAdversity(sim.trace.entries()) // []
 */
export function checkFlowAdversity(entries: readonly TraceEntry[]): Violation[] {
  refuseNotEntries('checkFlowAdversity', entries)
  const out: Violation[] = []
  forgeryEffects(entries, out)
  forgeryAdopted(entries, out)
  const refused = entries.filter(
    (e) =>
      e.kind === 'delivery.attempt' &&
      e.data.outcome === 'http_error' &&
      Number(e.data.status) >= 400 &&
      Number(e.data.status) < 500,
  )
  const first = refused[0]
  if (first !== undefined)
    out.push(
      violation(
        'flow.genuine_refused',
        `a genuine delivery of ${str(first.data.event)}, signed with the destination's secrets active then, was refused with ${str(first.data.status)} (${refused.length} such attempt(s)): ${refusalHint(entries, refused)}`,
        refused.slice(0, 2),
      ),
    )
  const replays = entries.filter((e) => e.kind === 'delivery.replay' && e.data.outcome === 'delivered')
  const replay = replays[0]
  if (replay !== undefined)
    out.push(
      violation(
        'flow.replay_refused',
        `a replayed delivery of ${str(replay.data.event)} (${str(replay.data.age)} ms old) was accepted: check the signature's timestamp against env.clock.now`,
        replays.slice(0, 2),
      ),
    )
  return out
}
