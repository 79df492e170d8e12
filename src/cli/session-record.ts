import { closeSync, openSync, writeSync } from 'node:fs'
import type { DeliveryTransport, TransportResult } from '#domain/index.js'
import type { Simulator } from '#simulator/index.js'
import type { Arrival } from './http-server.js'
import type { ForwardSpec } from './serve-forwarding.js'
import type { ServeClock } from './wall-driver.js'

/** What the forwarding options set up, as the record keeps it (replay sets up the same destinations). */
export type RecordedForward = ForwardSpec

/** The first line of a session record: how to build the same simulator again. */
export interface SessionHeader {
  readonly kind: 'session'
  readonly version: 2
  readonly seed: string
  /** Virtual time at start (epoch ms): with `--clock wall`, the wall time serve started at. */
  readonly start: number
  readonly header_prefix: string
  readonly limits: boolean
  readonly clock: ServeClock
  readonly forward?: RecordedForward
}

/** One accepted request: its arrival (the `serve.request` trace entry's data, `seq` and `at`) and its answer. */
export interface RecordedRequest extends Arrival {
  readonly kind: 'request'
  /** The answer's status; 0 for an indeterminate answer (a fault: the client saw a network failure). */
  readonly status: number
  /** The answer's body; for an indeterminate answer, the error's message. */
  readonly response: string
}

/** A webhook POST that left the process (loopback receivers): what came back and when, in virtual time. */
export interface RecordedReceiver {
  readonly kind: 'receiver'
  /** Posts are numbered in the order the simulator made them. */
  readonly n: number
  readonly url: string
  readonly sent: number
  readonly answered: number
  /** Trace entries when the answer came in: where it fell among requests served in the same instant. */
  readonly trace_length: number
  readonly result: TransportResult
}

/** `POST /__sim/reset`: the fresh simulator's start (a wall clock starts it at the current time). */
export interface RecordedReset {
  readonly kind: 'reset'
  readonly start: number
}

/** Written when serve stops: the virtual time and the trace it ended with. */
export interface RecordedEnd {
  readonly kind: 'end'
  readonly at: number
  readonly trace_hash: string
  readonly trace_length: number
}

export type SessionLine = SessionHeader | RecordedRequest | RecordedReceiver | RecordedReset | RecordedEnd

/**
 * Writes `serve --record <file>`: JSON lines, one per accepted request (with its virtual arrival
 * time and answer), per webhook answer from outside the process, per reset, and an end line with
 * the trace hash. Lines are written synchronously as they happen, so a killed server leaves every
 * line written before it died.
 *
 * @example
 * const recorder = createSessionRecorder('session.jsonl')
 * recorder.start(sim, { mode: 'wall', speed: 1 }, true, undefined)
 */
export interface SessionRecorder {
  readonly file: string
  start(sim: Simulator, clock: ServeClock, limits: boolean, forward: RecordedForward | undefined): void
  request(line: Omit<RecordedRequest, 'kind'>): void
  reset(sim: Simulator): void
  /** Wraps the transport webhook deliveries leave the process through, recording every answer. */
  transport(base: DeliveryTransport, sim: Simulator): DeliveryTransport
  end(sim: Simulator): void
}

export function createSessionRecorder(file: string): SessionRecorder {
  let fd: number | undefined = openSync(file, 'w')
  let posts = 0
  const write = (line: SessionLine) => {
    if (fd !== undefined) writeSync(fd, `${JSON.stringify(line)}\n`)
  }
  return {
    file,
    start(sim, clock, limits, forward) {
      write({
        kind: 'session',
        version: 2,
        seed: sim.seed,
        start: sim.clock.now,
        header_prefix: sim.service.kernel.prefix,
        limits,
        clock,
        ...(forward === undefined ? {} : { forward }),
      })
    },
    request: (line) => write({ kind: 'request', ...line }),
    reset: (sim) => write({ kind: 'reset', start: sim.clock.now }),
    transport(base, sim) {
      const { clock } = sim
      return {
        post(request) {
          const n = posts++
          const sent = clock.now
          const done = (result: TransportResult) => {
            write({ kind: 'receiver', n, url: request.url, sent, answered: clock.now, trace_length: sim.trace.length, result })
            return result
          }
          const result = base.post(request)
          return result instanceof Promise ? result.then(done) : done(result)
        },
        waitsOnClock: (url) => base.waitsOnClock(url),
      }
    },
    end(sim) {
      write({ kind: 'end', at: sim.clock.now, trace_hash: sim.trace.hash(), trace_length: sim.trace.length })
      if (fd !== undefined) closeSync(fd)
      fd = undefined
    },
  }
}
