import { REPLAY_MIN_AGE_MS } from '#domain/index.js'
import type { FaultEntry } from '#faults/index.js'
import { TextRequest } from '#http/index.js'
import { headerNames } from '#kernel/index.js'
import type { Simulator } from '#simulator/index.js'
import type { MountedReceiver, MountOptions } from './step-runner.js'

/**
 * The receivers of one run and what the attacker saw of them: the first signed request any
 * receiver got (what the service's attacker replays), and how many replays are due (a later
 * request with that very header, once it is old enough, is the replay).
 *
 * @example
 * const receivers = runReceivers(sim)
 * receivers.mount({ name: 'shop', url, handler })
 */
export interface RunReceivers {
  mount(options: MountOptions): MountedReceiver
  get(name: string): MountedReceiver | undefined
  /** The receiver a receiver fault names, or every one when it names none. */
  pick(entry: FaultEntry): MountedReceiver[]
  /** One more replay of the captured delivery is due. */
  replayScheduled(): void
}

/**
 * A refused connection (the transport records `connect_error`, not the receiver's answer). Only
 * its code and message are read: it is made without a stack trace, which costs more than the rest
 * of a refused attempt.
 */
function refuse(url: string): never {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  const error = new TypeError(`connect ECONNREFUSED ${url}`)
  Error.stackTraceLimit = limit
  throw Object.assign(error, { code: 'ECONNREFUSED' })
}

/** The first signed request any receiver got, and how many replays of it are due. */
interface AttackerCapture {
  /** Whether a signed request is the attacker's replay (the first one is captured). */
  isReplay(header: string | null, now: number): boolean
  replayScheduled(): void
}

function attackerCapture(): AttackerCapture {
  let captured: { header: string; at: number } | undefined
  let replays = 0
  return {
    isReplay(header, now) {
      if (header === null) return false
      if (captured === undefined) captured = { header, at: now }
      else if (replays > 0 && header === captured.header && now - captured.at >= REPLAY_MIN_AGE_MS) {
        replays--
        return true
      }
      return false
    },
    replayScheduled() {
      replays++
    },
  }
}

/** Whether any receiver of the run was handed a request yet. */
interface Reached {
  any: boolean
}

/** Mounts one receiver in `sim.receivers`; it answers, or refuses (or answers `downStatus`) while down. */
function mountOne(sim: Simulator, m: MountOptions, capture: AttackerCapture, reached: Reached): MountedReceiver {
  const signature = headerNames(sim.service.kernel.prefix).signature
  let down = m.down ?? false
  let downStatus = m.downStatus
  const observe = m.onDelivery
  const downAnswer = (): Response =>
    downStatus === undefined ? refuse(m.url) : new Response('receiver down', { status: downStatus })
  // Declares no parameter: the transport then builds no Request and signs nothing for it. Only
  // mounted once a request has reached a receiver of the run, so the service has already captured
  // its first signed delivery (the one an attacker replays), whose headers a receiver must read.
  const refusing = (): Response => downAnswer()
  const plain = (req: Request): Response | Promise<Response> => {
    reached.any = true
    if (!down) return m.handler(req)
    remount()
    return downAnswer()
  }
  const observed = async (req: Request): Promise<Response> => {
    const header = req.headers.get(signature)
    const raw = await TextRequest.textOf(req)
    const now = sim.clock.now
    const replay = capture.isReplay(header, now)
    if (down) {
      observe?.({ at: now, raw, signatureHeader: header, status: downStatus ?? 0, replay })
      if (downStatus === undefined) refuse(m.url)
      return new Response('receiver down', { status: downStatus })
    }
    const res = await m.handler(req)
    observe?.({ at: now, raw, signatureHeader: header, status: res.status, replay })
    return res
  }
  const remount = () => sim.receivers.mount(m.url, observe !== undefined ? observed : down && reached.any ? refusing : plain)
  remount()
  return {
    name: m.name,
    url: m.url,
    get down() {
      return down
    },
    set(next, status) {
      down = next
      if (next) downStatus = status ?? m.downStatus
      remount()
      m.onSwitch?.(next)
    },
  }
}

/**
 * The receivers of a run on `sim` (mounted in `sim.receivers`, switched down and up by steps and faults).
 *
 * @example
 * const receivers = runReceivers(sim)
 */
export function runReceivers(sim: Simulator): RunReceivers {
  const receivers = new Map<string, MountedReceiver>()
  const capture = attackerCapture()
  const reached: Reached = { any: false }
  return {
    mount(m) {
      const r = mountOne(sim, m, capture, reached)
      receivers.set(m.name, r)
      return r
    },
    get(name) {
      return receivers.get(name)
    },
    pick(entry) {
      if (entry.receiver === undefined) return [...receivers.values()]
      const r = receivers.get(entry.receiver)
      return r === undefined ? [] : [r]
    },
    replayScheduled() {
      return capture.replayScheduled()
    },
  }
}

/**
 * Wires the faults that act outside the service: a scheduled `receiver_down` takes the named
 * receiver (or every one) down until `receiver_up`, and `replay_delivery` asks the service's
 * delivery area to re-POST its oldest signed delivery once it is `REPLAY_MIN_AGE_MS` old.
 *
 * @example
 * wireReceiverFaults(sim, runReceivers(sim))
 */
export function wireReceiverFaults(sim: Simulator, receivers: RunReceivers): void {
  sim.faults.on('receiver_down', (entry) => {
    const rs = receivers.pick(entry)
    for (const r of rs) r.set(true, entry.status)
    return rs.length > 0
  })
  sim.faults.on('receiver_up', (entry) => {
    const rs = receivers.pick(entry)
    for (const r of rs) r.set(false)
    return rs.length > 0
  })
  sim.faults.on('replay_delivery', () => {
    const scheduled = sim.service.delivery.replay({ minAgeMs: REPLAY_MIN_AGE_MS })
    if (scheduled) receivers.replayScheduled()
    return scheduled
  })
}
