import type { ServerResponse } from 'node:http'
import type { Simulator } from '#simulator/index.js'

/**
 * The trace kinds a dashboard page shows: a request, an event, a delivery's attempt or its
 * schedule, a destination's change, a fault, the clock's move. Other entries (and the dashboard's
 * own reads, which append none) wake no page.
 */
const SHOWN = new Set([
  'http',
  'event.emitted',
  'delivery.scheduled',
  'delivery.attempt',
  'delivery.cancelled',
  'delivery.exhausted',
  'delivery.replay',
  'fault',
  'faults.changed',
  'faults.policy',
])

/** Kinds named by their prefix: every change of a destination (created, disabled, secret rolled, ...). */
const shown = (kind: string): boolean => SHOWN.has(kind) || kind.startsWith('destination.') || kind.startsWith('clock.')

/** One open stream: its response and the kinds seen since its last message. */
interface Stream {
  readonly res: ServerResponse
  readonly kinds: Set<string>
  seq: number
}

/**
 * The dashboard's live updates as server-sent events: each open page gets one message per burst
 * of trace entries (the entries of one turn of the event loop), naming the last sequence number
 * and the kinds that changed, and reads what changed through the admin API. A page is woken, never
 * polled, and a burst of a thousand requests is one message. A reset of the served simulator is
 * one `reset` message, after which the streams follow the fresh simulator.
 *
 * @example
 * const streams = new DashboardStreams(sim)
 * streams.open(res)
 */
export class DashboardStreams {
  readonly #streams = new Set<Stream>()
  #sim: Simulator
  #unsubscribe: () => void
  #queued = false

  constructor(sim: Simulator) {
    this.#sim = sim
    this.#unsubscribe = this.#follow(sim)
  }

  /**
   * Answers a request of the live stream and keeps it open until the page goes.
   *
   * @example
   * streams.open(res)
   */
  open(res: ServerResponse): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    })
    const stream: Stream = { res, kinds: new Set(), seq: this.#sim.trace.length - 1 }
    res.write(`retry: 1000\nevent: hello\ndata: ${JSON.stringify({ seq: stream.seq })}\n\n`)
    this.#streams.add(stream)
    res.on('close', () => this.#streams.delete(stream))
  }

  /**
   * Follows the simulator served now, if a reset replaced it, and tells every page.
   *
   * @example
   * streams.retarget(host.sim)
   */
  retarget(sim: Simulator): void {
    if (sim === this.#sim) return
    this.#unsubscribe()
    this.#sim = sim
    this.#unsubscribe = this.#follow(sim)
    for (const stream of this.#streams) {
      stream.kinds.clear()
      stream.res.write(`event: reset\ndata: ${JSON.stringify({ seq: sim.trace.length - 1 })}\n\n`)
    }
  }

  /** How many pages are listening (for tests and the banner). */
  get size(): number {
    return this.#streams.size
  }

  #follow(sim: Simulator): () => void {
    return sim.trace.subscribe((entry) => {
      if (this.#streams.size === 0 || !shown(entry.kind)) return
      for (const stream of this.#streams) {
        stream.kinds.add(entry.kind)
        stream.seq = entry.seq
      }
      if (this.#queued) return
      this.#queued = true
      queueMicrotask(() => this.#flush())
    })
  }

  #flush(): void {
    this.#queued = false
    for (const stream of this.#streams) {
      if (stream.kinds.size === 0) continue
      stream.res.write(`event: change\ndata: ${JSON.stringify({ seq: stream.seq, kinds: [...stream.kinds] })}\n\n`)
      stream.kinds.clear()
    }
  }
}
