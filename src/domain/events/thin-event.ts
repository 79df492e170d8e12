import { cloneData } from '#kernel/clone-data.js'
import type { EmitThin, StoredEvent } from './event.js'
import { appendEvent, type EventLog } from './event-log.js'

/**
 * Emits a thin (v2) event: a notification naming its related object.
 *
 * @example
 * emitThinEvent(log, { type: 'v1.billing.meter.no_meter_found', account, mode: 'test' })
 */
export function emitThinEvent(log: EventLog, input: EmitThin): StoredEvent {
  const { kernel, accounts } = log
  const account = accounts.get(input.account)
  const apiVersion = account?.apiVersion ?? accounts.defaultVersion
  const id = kernel.ids.next(`evt_${input.mode}`, 24)
  const body: Record<string, unknown> = {
    id,
    object: 'v2.core.event',
    type: input.type,
    created: new Date(kernel.clock.now).toISOString(),
    livemode: input.mode === 'live',
    // The platform's own events carry no context at all: the client declares a string or its absence.
    ...(account?.platform !== undefined || contextOf(log, input.account) !== undefined ? { context: input.account } : {}),
    ...(input.relatedObject ? { related_object: { ...input.relatedObject } } : {}),
    data: cloneData(input.data ?? {}),
    ...(input.reason ? { reason: cloneData(input.reason) } : {}),
  }
  return appendEvent(log, {
    id,
    kind: 'thin',
    type: input.type,
    account: input.account,
    mode: input.mode,
    at: kernel.clock.now,
    apiVersion,
    body,
    objectId: input.relatedObject?.id,
  })
}

/** The account of an event's context: set for an account of an organisation. */
function contextOf(log: EventLog, accountId: string): string | undefined {
  const account = log.accounts.get(accountId)
  return account?.organisation === undefined ? undefined : accountId
}
