import type { TraceEntry } from '#kernel/index.js'
import { traceChecker } from './checker.js'
import { type Violation, violation } from './violation.js'

/** Options of the fulfilment checks. */
export interface FulfilmentCheckOptions {
  /**
   * Whether the client may fulfil a session whose delayed payment has not cleared yet, as long as
   * it reverses the fulfilment when the payment fails. Default false: fulfil only once
   * `payment_status` is `paid` (the provider's own fulfilment guide).
   */
  readonly provisional?: boolean
}

interface SessionState {
  readonly id: string
  readonly mode: string
  readonly status: string
  readonly payment_status: string
  /** `checkout.session.async_payment_failed` was sent for it. */
  readonly async_failed: boolean
  /** The client could know it is paid (accepted an event saying so, or showed the success page then). */
  readonly known: boolean
}

/**
 * Whether a session's state obliges the seller to deliver: complete and paid, or complete with
 * nothing to pay.
 *
 * @example
 * sessionPaid({ status: 'complete', payment_status: 'unpaid' }) // false (a delayed payment pending)
 */
export function sessionPaid(state: { readonly status: unknown; readonly payment_status: unknown }): boolean {
  return state.status === 'complete' && (state.payment_status === 'paid' || state.payment_status === 'no_payment_required')
}

interface Tally {
  fulfils: TraceEntry[]
  reverses: TraceEntry[]
  final?: TraceEntry
}

/**
 * Judges a fulfilment client over its run's trace: what it fulfilled and reversed
 * (`harness.fulfil.fulfil`, with the session's state at that moment, and `harness.fulfil.reverse`)
 * beside each checkout session's state at the end (`harness.fulfil.session`).
 *
 * - `fulfilment.once`: a session paid at the end was fulfilled exactly once and never reversed
 *   (the webhook's duplicates, a late event and the success-page return racing it included); at
 *   most once when nothing told the client it was paid (every such delivery failed, no page shown).
 * - `fulfilment.unpaid`: nothing fulfilled while its session was unpaid (unless `provisional`),
 *   and nothing left fulfilled of a session unpaid at the end (open, expired, still pending).
 * - `fulfilment.reversed`: a session whose delayed payment failed is not left fulfilled.
 *
 * @example
 * checkFulfilmentTrace(sim.trace.entries()) // []
 */
export function checkFulfilmentTrace(entries: readonly TraceEntry[], options: FulfilmentCheckOptions = {}): Violation[] {
  const sessions = new Map<string, Tally>()
  const tally = (id: string) => {
    let t = sessions.get(id)
    if (t === undefined) {
      t = { fulfils: [], reverses: [] }
      sessions.set(id, t)
    }
    return t
  }
  for (const e of entries) {
    if (e.kind === 'harness.fulfil.fulfil') tally(String(e.data.session)).fulfils.push(e)
    else if (e.kind === 'harness.fulfil.reverse') tally(String(e.data.session)).reverses.push(e)
    else if (e.kind === 'harness.fulfil.session') tally(String(e.data.id)).final = e
  }
  const out: Violation[] = []
  for (const [id, t] of sessions) {
    const early = t.fulfils.find((f) => f.data.paid !== true)
    if (early !== undefined && !options.provisional) {
      out.push(
        violation(
          'fulfilment.unpaid',
          early.data.shown_unpaid === true
            ? `${id}: fulfilled while handling an event that showed it unpaid`
            : `${id}: fulfilled while the session was ${String(early.data.status)} and ${String(early.data.payment_status)}`,
          [early],
        ),
      )
      continue
    }
    const state = t.final?.data as SessionState | undefined
    const net = t.fulfils.length - t.reverses.length
    if (state === undefined) {
      if (net !== 0)
        out.push(violation('fulfilment.unpaid', `${id}: fulfilled, but no checkout session of the run has this id`, t.fulfils))
    } else if (sessionPaid(state)) {
      // Every event saying it is paid may have failed delivery: then nothing told the client.
      const expected = state.known ? 1 : t.fulfils.length === 0 ? 0 : 1
      if (t.fulfils.length !== expected || t.reverses.length > 0)
        out.push(
          violation(
            'fulfilment.once',
            `${id}: paid, fulfilled ${t.fulfils.length} time(s) and reversed ${t.reverses.length} time(s) (expected ${state.known ? 'once' : 'at most once'}, never reversed)`,
            [t.final as TraceEntry, ...t.fulfils, ...t.reverses],
          ),
        )
    } else if (net !== 0) {
      out.push(
        violation(
          state.async_failed ? 'fulfilment.reversed' : 'fulfilment.unpaid',
          state.async_failed
            ? `${id}: its delayed payment failed, and it is still fulfilled (${t.fulfils.length} fulfilment(s), ${t.reverses.length} reversal(s))`
            : `${id}: ${state.status} and ${state.payment_status} at the end, and left fulfilled ${net} time(s)`,
          [...t.fulfils, ...t.reverses, t.final as TraceEntry],
        ),
      )
    }
  }
  return out
}

/**
 * `fulfilment`: the checker form for scenarios and `checkerRegistry`.
 *
 * @example
 * fulfilmentChecker.check({ entries, requests: [], deliveries: [] })
 */
export const fulfilmentChecker = traceChecker(
  'fulfilment',
  (entries: readonly TraceEntry[]) => checkFulfilmentTrace(entries),
  'every paid session fulfilled exactly once, no unpaid one fulfilled',
)
