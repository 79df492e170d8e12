import { createHmac } from 'node:crypto'
import { refuseArgument } from '../refuse-argument.js'

function hmac(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex')
}

/**
 * How a delivery's signature is carried over to an app outside the process.
 *
 * @example
 * const how: Resigning = { runSecrets: sim.admin.signingSecrets(destination), appSecret: 'whsec_app', shiftSeconds: 0 }
 */
export interface Resigning {
  /** The secrets the provider signs the destination's deliveries with now. */
  readonly runSecrets: readonly string[]
  /** The one secret the app was started with. */
  readonly appSecret: string
  /** Seconds to add to the header's timestamp: the app's wall clock minus the run's virtual clock. */
  readonly shiftSeconds: number
}

/**
 * Re-signs a delivery's signature header for an app that holds its own secret and reads the wall
 * clock: every `v1` that verifies under one of the run's secrets is signed again under the app's
 * secret, and the timestamp moves by `shiftSeconds`, so a delivery keeps its age (signed now, or
 * replayed ten minutes late) on the app's clock. A `v1` that does not verify (a forgery, a
 * tampered body) is passed as it is, and stays false under the new timestamp; `v0` and unknown
 * parts are kept.
 *
 * @example
 * resignDelivery('t=1767225600,v1=ab12...', body, { runSecrets: ['whsec_run'], appSecret: 'whsec_app', shiftSeconds: 30_000_000 })
 */
export function resignDelivery(header: string, body: string, how: Resigning): string {
  if (typeof header !== 'string') refuseArgument('resignDelivery', 'header', header, 'string')
  if (typeof body !== 'string') refuseArgument('resignDelivery', 'body', body, 'string')
  refuseArgument('resignDelivery', 'how', how, 'object')
  refuseArgument('resignDelivery', "how's runSecrets", how.runSecrets, 'array')
  const parts = header.split(',').map((p) => p.trim())
  const t = parts.find((p) => p.startsWith('t='))?.slice(2)
  if (t === undefined || !/^\d+$/.test(t)) return header
  const shifted = String(Number(t) + how.shiftSeconds)
  const genuine = new Set(how.runSecrets.map((s) => hmac(s, t, body)))
  const out = parts.map((p) => {
    if (p.startsWith('t=')) return `t=${shifted}`
    if (p.startsWith('v1=') && genuine.has(p.slice(3))) return `v1=${hmac(how.appSecret, shifted, body)}`
    return p
  })
  return out.join(',')
}
