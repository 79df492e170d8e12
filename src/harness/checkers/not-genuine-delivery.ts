import type { TraceEntry } from '#kernel/index.js'

/**
 * How a verdict names a delivery that was not genuine: the forgery the harness traced for it
 * (`harness.forged`: its kind, type and the app's answer), or else an old signature replayed. One
 * wording for every checker that blames a forgery, so the same delivery reads the same in each.
 *
 * @example
 * notGenuineDelivery('evt_forged1', forgedEntry, true) // 'a forged delivery of evt_forged1 (wrong_secret: customer.subscription.deleted, answered 400)'
 */
export function notGenuineDelivery(event: string, forged: TraceEntry | undefined, naming: boolean): string {
  if (forged === undefined) return `a delivery of ${event} that was not genuine (an old signature replayed)`
  const { forgery, type, status, outcome } = forged.data
  return `a forged delivery${naming ? ` of ${event}` : ''} (${String(forgery)}: ${String(type)}, answered ${String(status ?? outcome)})`
}
