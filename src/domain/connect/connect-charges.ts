import type { BehaviourEnv, OperationCall } from '../engine/declaration.js'
import type { Json } from '../engine/list.js'
import { subList } from '../engine/sub-list.js'
import type { Origin } from '../events/emit-snapshot.js'
import type { Scope } from '../mode.js'
import type { ResourcePorts } from '../resource-ports.js'
import { tableError } from '../service-error.js'
import { destinationPayment } from './destination-payment.js'

type Env = BehaviourEnv<ResourcePorts>
type Params = Readonly<Record<string, unknown>>

/** The platform of a connected account, or undefined for a platform's own scope. */
function platformOf(env: Env, scope: Scope): string | undefined {
  return env.ports.accounts.get(scope.account)?.platform
}

function isConnectedOf(env: Env, id: unknown, platform: string): boolean {
  return typeof id === 'string' && env.ports.accounts.get(id)?.platform === platform
}

/**
 * Checks a payment intent's Connect params before anything changes: `transfer_data[destination]`
 * and `on_behalf_of` name a connected account of the caller; `transfer_data[amount]` and
 * `application_fee_amount` fit in the amount; an application fee needs a payment for another
 * account (a direct one, made acting for a connected account, or a destination one).
 *
 * @example
 * checkConnectParams(env, call, 2000) // throws 400 on `application_fee_amount` without a connected account
 */
export function checkConnectParams(env: Env, call: OperationCall, amount: number, current: Params = {}): void {
  const p = { ...current, ...call.params }
  const transfer = (p.transfer_data ?? undefined) as Params | undefined
  const destination = transfer?.destination
  if (destination !== undefined && !isConnectedOf(env, destination, call.scope.account)) {
    throw tableError(
      'resource_missing',
      { kind: 'account', id: String(destination) },
      { param: 'transfer_data[destination]', status: 400 },
    )
  }
  if (typeof p.on_behalf_of === 'string' && p.on_behalf_of !== '' && !isConnectedOf(env, p.on_behalf_of, call.scope.account)) {
    throw tableError('resource_missing', { kind: 'account', id: p.on_behalf_of }, { param: 'on_behalf_of', status: 400 })
  }
  const transferAmount = transfer?.amount
  if (typeof transferAmount === 'number' && transferAmount > amount) {
    throw tableError('connect_amount_too_large', { param: 'transfer_data[amount]', amount }, { param: 'transfer_data[amount]' })
  }
  const fee = p.application_fee_amount
  if (fee === undefined || fee === null || fee === '') return
  if (typeof fee === 'number' && fee > amount) {
    throw tableError('connect_amount_too_large', { param: 'application_fee_amount', amount }, { param: 'application_fee_amount' })
  }
  if (destination === undefined && platformOf(env, call.scope) === undefined) {
    throw tableError('application_fee_needs_connect', {}, { param: 'application_fee_amount' })
  }
}

/** A posting available when the charge's own funds are (two days, as the ledger's default). */
function post(
  env: Env,
  account: string,
  mode: Scope['mode'],
  currency: string,
  amount: number,
  type: string,
  source: string,
): string {
  return env.ports.ledger.post({ account, mode, currency, amount, type, reportingCategory: type, source }).id
}

/**
 * Creates the application fee of a captured charge in the platform's scope, moving `amount` from
 * the connected account that was paid to the platform (`application_fee` balance transactions).
 */
function collectFee(env: Env, platform: Scope, paid: string, charge: Json, amount: number, origin: Origin): Json {
  const currency = String(charge.currency)
  const chargeId = String(charge.id)
  return env.engine.resource('application_fee').create(platform, {}, origin, (fee) => {
    post(env, paid, platform.mode, currency, -amount, 'application_fee', String(fee.id))
    return {
      account: paid,
      amount,
      amount_refunded: 0,
      application: `ca_${platform.account.slice(5)}`,
      balance_transaction: post(env, platform.account, platform.mode, currency, amount, 'application_fee', String(fee.id)),
      charge: chargeId,
      currency,
      fee_source: { charge: chargeId, type: 'charge' },
      originating_transaction: chargeId,
      refunded: false,
      refunds: subList(`/v1/application_fees/${fee.id}/refunds`),
    }
  })
}

/**
 * What a captured charge of a Connect payment intent moves, after the charge itself: for a
 * destination charge (`transfer_data[destination]`), a transfer of `transfer_data[amount]` (all of
 * it by default) to the destination, made with the charge's pending funds, arriving there as its
 * `destination_payment` (`py_`); then, with
 * `application_fee_amount`, an application fee from the paid connected account (the destination,
 * or the account a direct charge was made for) to the platform. The charge shows `transfer`,
 * `transfer_data`, `application_fee`, `application_fee_amount` and `on_behalf_of`.
 *
 * @example
 * collectConnect(env, scope, charge, origin) // a destination charge: transfer.created, application_fee.created
 */
export function collectConnect(env: Env, scope: Scope, charge: Json, origin: Origin): void {
  const piId = charge.payment_intent
  if (typeof piId !== 'string') return
  const pi = env.engine.resource('payment_intent').get(scope, piId)
  if (pi === undefined) return
  const transfer = (pi.transfer_data ?? null) as Params | null
  const destination = typeof transfer?.destination === 'string' ? transfer.destination : undefined
  const fee =
    typeof pi.application_fee_amount === 'number' && pi.application_fee_amount > 0 ? pi.application_fee_amount : undefined
  const direct = platformOf(env, scope)
  if (destination === undefined && (fee === undefined || direct === undefined)) return
  const captured = charge.amount_captured as number
  const currency = String(charge.currency)
  const fields: Record<string, unknown> = { on_behalf_of: pi.on_behalf_of ?? null }
  if (destination !== undefined) {
    const amount = Math.min(typeof transfer?.amount === 'number' ? transfer.amount : captured, captured)
    const made = env.engine.resource('transfer').create(scope, { amount, currency, destination }, origin, (t) => ({
      balance_transaction: post(env, scope.account, scope.mode, currency, -amount, 'transfer', String(t.id)),
      amount_reversed: 0,
      reversed: false,
      reversals: subList(`/v1/transfers/${t.id}/reversals`),
      source_transaction: charge.id,
      transfer_group: pi.transfer_group ?? null,
    }))
    const arrival = { id: String(made.id), amount, currency, from: scope }
    const payment = destinationPayment(env, destination, arrival, (py) =>
      post(env, destination, scope.mode, currency, amount, 'payment', py),
    )
    env.engine.resource('transfer').put(scope, String(made.id), { destination_payment: payment.id })
    fields.transfer = made.id
    fields.transfer_data = { amount: transfer?.amount ?? null, destination }
  }
  if (fee !== undefined) {
    const platform = destination === undefined ? { account: direct as string, mode: scope.mode } : scope
    const paid = destination ?? scope.account
    const made = collectFee(env, platform, paid, charge, Math.min(fee, captured), origin)
    fields.application_fee = made.id
    fields.application_fee_amount = made.amount
  }
  env.engine.resource('charge').put(scope, String(charge.id), fields)
}
