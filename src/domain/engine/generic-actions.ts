import { resourceData } from '#catalogue/index.js'
import type { Operation } from '#catalogue/types.js'
import type { Behaviour } from './declaration.js'
import type { Json } from './list.js'

/** What an action does to its object: fields it sets and the event it emits. */
export interface ActionEffect {
  readonly set?: (object: Json, params: Readonly<Record<string, unknown>>) => Readonly<Record<string, unknown>>
  readonly event?: string
}

/** A terminal reader's `action` as the provider shows it while the reader works on it. */
const readerAction =
  (type: string) =>
  (_: Json, params: Readonly<Record<string, unknown>>): Record<string, unknown> => ({
    action: { type, status: 'in_progress', failure_code: null, failure_message: null, [type]: { ...params } },
  })

/** The reader's action, finished as the provider's test helpers finish it. */
const readerOutcome =
  (status: 'succeeded' | 'failed') =>
  (reader: Json): Record<string, unknown> => ({
    action: { ...((reader.action as Record<string, unknown> | null) ?? {}), status },
  })

/**
 * The effects the generated table cannot read off a status enum: terminal readers work through an
 * `action` object (the provider's test helpers finish it and emit `terminal.reader.action_*`),
 * issuing authorizations are approved with a flag, and captured or reversed ones close.
 */
const WRITTEN: Readonly<Record<string, ActionEffect>> = {
  'terminal.readers.processPaymentIntent': { set: readerAction('process_payment_intent') },
  'terminal.readers.processSetupIntent': { set: readerAction('process_setup_intent') },
  'terminal.readers.refundPayment': { set: readerAction('refund_payment') },
  'terminal.readers.setReaderDisplay': { set: readerAction('set_reader_display') },
  'terminal.readers.collectInputs': { set: readerAction('collect_inputs') },
  'terminal.readers.collectPaymentMethod': { set: readerAction('collect_payment_method') },
  'terminal.readers.confirmPaymentIntent': { set: readerAction('confirm_payment_intent') },
  'terminal.readers.cancelAction': { set: () => ({ action: null }) },
  'testHelpers.terminal.readers.presentPaymentMethod': {
    set: readerOutcome('succeeded'),
    event: 'terminal.reader.action_succeeded',
  },
  'testHelpers.terminal.readers.succeedInputCollection': {
    set: readerOutcome('succeeded'),
    event: 'terminal.reader.action_succeeded',
  },
  'testHelpers.terminal.readers.timeoutInputCollection': {
    set: readerOutcome('failed'),
    event: 'terminal.reader.action_failed',
  },
  'issuing.authorizations.approve': { set: () => ({ approved: true }) },
  'issuing.authorizations.decline': { set: () => ({ approved: false, status: 'closed' }) },
  'testHelpers.issuing.authorizations.capture': { set: () => ({ status: 'closed' }) },
  'testHelpers.treasury.inboundTransfers.returnInboundTransfer': {
    set: () => ({ status: 'succeeded', returned: true }),
  },
}

/**
 * The effect of an action operation: the written table first, else the generated one (the status
 * its verb names in the object's `status` enum, and the event of that status).
 *
 * @example
 * actionEffect('treasury.inboundTransfers.cancel') // { set: () => ({ status: 'canceled' }), event: 'treasury.inbound_transfer.canceled' }
 */
export function actionEffect(name: string): ActionEffect | undefined {
  const written = WRITTEN[name]
  if (written !== undefined) return written
  const row = resourceData().actions[name]
  if (row === undefined) return undefined
  const status = row.status
  return {
    ...(status === undefined ? {} : { set: () => ({ status }) }),
    ...(row.event === undefined ? {} : { event: row.event }),
  }
}

/** True for an action on one object: `POST …/:id/<verb>`. */
export function isAction(op: Operation): boolean {
  const segs = op.path.split('/')
  return op.method === 'POST' && (segs.at(-2) ?? '').startsWith(':') && !(segs.at(-1) ?? ':').startsWith(':')
}

/**
 * The one behaviour of every action of a resource nobody declared by hand: the object must exist
 * (404 otherwise); the action sets the fields its effect names and emits its event (else the
 * resource's `*.updated` when something changed); an action with no known effect answers the
 * object as it is (the provider's work behind it is asynchronous and not modelled).
 *
 * @example
 * const cancel = actionBehaviour(operation('treasury.inboundTransfers.cancel'), 'treasury.inbound_transfer')
 */
export function actionBehaviour(op: Operation, object: string): Behaviour {
  const idParam = op.pathParams.at(-1) ?? 'id'
  return (call, _next, { engine }) => {
    const r = engine.resource(object)
    const id = call.path[idParam] ?? ''
    const current = r.require(call.scope, id)
    const effect = actionEffect(op.name)
    const fields = effect?.set?.(current, call.params) ?? {}
    if (effect?.event === undefined)
      return Object.keys(fields).length === 0 ? current : r.set(call.scope, id, fields, call.origin)
    const changed = r.put(call.scope, id, fields)
    engine.emit(effect.event, call.scope, changed, call.origin)
    return changed
  }
}
