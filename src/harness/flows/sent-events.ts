import type { Simulator } from '#simulator/index.js'
import type { SentEvent } from './flow-forgery.js'
import { isReminder } from './flow-setup.js'

/** What a run counts as sent to the app: the events its endpoints are subscribed to and routed. */
export interface SentEvents {
  /** The latest event sent about each object, by object id (a reminder is no change: left out). */
  readonly latest: Map<string, string>
  /** Every event sent, oldest first (what the forger and the redeliveries pick from). */
  readonly sent: SentEvent[]
}

/**
 * Follows the events a run's app is sent from now on: of `types` (`*` for every type), and of a
 * connected account only when the app has a Connect endpoint (the provider sends them nowhere else).
 *
 * @example
 * const { latest, sent } = watchSentEvents(sim, ['invoice.paid'], false)
 */
export function watchSentEvents(sim: Simulator, types: readonly string[], connect: boolean): SentEvents {
  const latest = new Map<string, string>()
  const sent: SentEvent[] = []
  const subscribed = new Set<string>(types)
  const every = subscribed.has('*')
  sim.service.events.subscribe((e) => {
    if ((!every && !subscribed.has(e.type)) || e.objectId === undefined) return
    if (!connect && e.account !== sim.platform.id) return
    if (!isReminder(e.type)) latest.set(e.objectId, e.id)
    sent.push({ id: e.id, type: e.type, objectId: e.objectId, body: e.body })
  })
  return { latest, sent }
}
