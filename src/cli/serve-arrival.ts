import { callerNow } from '#kernel/index.js'
import type { Simulator } from '#simulator/index.js'

// Hop-by-hop and framing headers say nothing about the request; admin credentials stay out of the trace.
// The host is kept: answers that name the server (an error's `request_log_url`) replay with it.
const UNRECORDED = new Set(['connection', 'keep-alive', 'content-length', 'transfer-encoding'])
const ADMIN_SECRETS = new Set(['authorization', 'x-sim-admin-token'])

// Requests arrive many to a millisecond under load: its ISO text is made once.
let lastWall = { ms: Number.NaN, iso: '' }
function wallNow(): string {
  const ms = callerNow()
  if (ms !== lastWall.ms) lastWall = { ms, iso: new Date(ms).toISOString() }
  return lastWall.iso
}

/** A served request's arrival as its `serve.request` trace entry holds it. */
export interface Arrival {
  /** The entry's `seq`: the order requests were accepted in. */
  readonly seq: number
  /** Virtual arrival time (epoch ms), the entry's `at`. */
  readonly at: number
  /** Real arrival time (ISO 8601). */
  readonly wall: string
  readonly method: string
  readonly path: string
  readonly admin: boolean
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/**
 * Records a served request's arrival: its wall time and (as the entry's `at`) the virtual time it
 * is served at, with what a replay needs to send it again (method, target, headers, body). Only
 * the served path (and `replay --served`, with the recorded `wall`) appends it, so in-process runs
 * keep their trace byte for byte.
 *
 * @example
 * arrival(sim, 'GET', { authorization: 'Bearer sk_test_...' }, '/v1/balance', false, '')
 */
export function arrival(
  sim: Simulator,
  method: string,
  raw: Readonly<Record<string, string | string[] | undefined>>,
  path: string,
  admin: boolean,
  body: string,
  wall: string = wallNow(),
): Arrival {
  const headers = recordedHeaders(raw, admin)
  const entry = sim.trace.append('serve.request', { wall, method, path, admin, headers, body })
  return { seq: entry.seq, at: entry.at, wall, method, path, admin, headers, body }
}

// The last recorded headers, names in order: a client sends the same headers again and again, and
// entries are never changed, so an equal set is shared instead of kept once per request.
let lastHeaders: Record<string, string> = {}
let lastNames: string[] = []

/** Whether a `serve.request` entry records a header: every one but the hop-by-hop ones (and admin secrets). */
function recorded(name: string, value: string | string[] | undefined, admin: boolean): value is string {
  return typeof value === 'string' && !UNRECORDED.has(name) && !(admin && ADMIN_SECRETS.has(name))
}

/** The headers a `serve.request` entry records, shared with the previous request's when equal. */
function recordedHeaders(raw: Readonly<Record<string, string | string[] | undefined>>, admin: boolean): Record<string, string> {
  let i = 0
  let same = true
  for (const name in raw) {
    const value = raw[name]
    if (!recorded(name, value, admin)) continue
    if (lastNames[i] !== name || lastHeaders[name] !== value) {
      same = false
      break
    }
    i++
  }
  if (same && i === lastNames.length) return lastHeaders
  const headers: Record<string, string> = {}
  const names: string[] = []
  for (const name in raw) {
    const value = raw[name]
    if (!recorded(name, value, admin)) continue
    headers[name] = value
    names.push(name)
  }
  // Frozen: entries are never changed, and the trace writes a frozen object's members once.
  lastHeaders = Object.freeze(headers)
  lastNames = names
  return lastHeaders
}
