import { cloneData } from '#kernel/clone-data.js'
import { previousAt } from '../versions/previous-at.js'
import { needsWalk, renderAt } from '../versions/render-at.js'
import { eventObjectAt } from '../versions/withheld-at.js'
import type { EmitSnapshot, StoredEvent } from './event.js'
import { appendEvent, type EventLog } from './event-log.js'

/**
 * Emits a snapshot (v1) event: its body structured for the account's version when the event
 * occurs, once; the object as it is now kept beside it when that version is an older one.
 *
 * @example
 * emitSnapshotEvent(log, { type: 'customer.created', account, mode: 'test', object: customer })
 */
export function emitSnapshotEvent(log: EventLog, input: EmitSnapshot): StoredEvent {
  const { kernel, accounts } = log
  const account = accounts.get(input.account)
  const apiVersion = account?.apiVersion ?? accounts.defaultVersion
  const id = kernel.ids.next('evt', 24)
  // A sealed object (the engine's) never changes: held as it is, not copied.
  const object = input.sealed === true ? input.object : cloneData(input.object)
  const connected = account?.platform !== undefined
  // Optional members are added after the literal, in the same order: a spread of a
  // conditional object costs about a microsecond per event on node 20.
  // Structured for the account's version when the event occurs, once; the object as it is now
  // is kept beside it for destinations pinned to another version.
  const walked = needsWalk(apiVersion)
  const find = walked ? log.findIn({ account: input.account, mode: input.mode }) : undefined
  const invoiceOf = walked ? log.invoicesIn({ account: input.account, mode: input.mode }) : undefined
  const rendered = find === undefined ? object : (renderAt(object, apiVersion, find, [], invoiceOf) as Record<string, unknown>)
  // Without what the version answers only when expanded (a charge's refunds): the object as it
  // is is then kept beside the body too, for destinations pinned to a version that sent it.
  const sent = eventObjectAt(rendered, apiVersion)
  const data: Record<string, unknown> = { object: sent }
  const previous = input.previousAttributes ? cloneData(input.previousAttributes) : undefined
  if (previous !== undefined) {
    data.previous_attributes = find === undefined ? previous : previousAt(object, rendered, previous, apiVersion, find, invoiceOf)
  }
  const body: Record<string, unknown> = {
    id,
    object: 'event',
    api_version: apiVersion,
    created: Math.floor(kernel.clock.now / 1000),
    data,
    livemode: input.mode === 'live',
    pending_webhooks: 0,
    request: input.request ?? { id: null, idempotency_key: null },
    type: input.type,
  }
  if (connected) body.account = input.account
  if (account?.organisation !== undefined) body.context = input.account
  return appendEvent(log, {
    id,
    kind: 'snapshot',
    type: input.type,
    account: input.account,
    mode: input.mode,
    at: kernel.clock.now,
    apiVersion,
    body,
    objectId: typeof object.id === 'string' ? object.id : undefined,
    ...(walked || sent !== rendered ? { current: object } : {}),
    ...(walked && previous !== undefined ? { previous } : {}),
  })
}

/**
 * An event's body structured for `version`: `data.object` rendered at that version from the
 * object as it was when the event occurred, the `api_version` stamp to match. The stored body when
 * the version is the event's own (or the event is thin).
 *
 * @example
 * eventBodyAt(log, event, '2024-06-20')
 */
export function eventBodyAt(log: EventLog, event: StoredEvent, version: string): Readonly<Record<string, unknown>> {
  if (version === event.apiVersion || event.kind !== 'snapshot') return event.body
  const data = event.body.data as Record<string, unknown>
  const now = event.current ?? (data.object as Record<string, unknown>)
  const find = log.findIn({ account: event.account, mode: event.mode })
  const invoiceOf = log.invoicesIn({ account: event.account, mode: event.mode })
  const walk = needsWalk(version)
  const rendered = walk ? (renderAt(now, version, find, [], invoiceOf) as Record<string, unknown>) : now
  const object = eventObjectAt(rendered, version)
  // The previous attributes follow the object's shape: walked from the current version's ones.
  const previous = event.previous ?? (data.previous_attributes as Record<string, unknown> | undefined)
  if (previous === undefined) return { ...event.body, api_version: version, data: { ...data, object } }
  const previous_attributes = walk ? previousAt(now, rendered, previous, version, find, invoiceOf) : previous
  return { ...event.body, api_version: version, data: { ...data, object, previous_attributes } }
}
