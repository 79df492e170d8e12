import { REPLAY_MIN_AGE_MS } from '#domain/delivery/delivery.js'
import type { FaultEntry } from '#faults/faults-schema.js'
import type { TraceEntry } from '#kernel/trace.js'
import { headerNames } from '../../index.js'
import type { Simulator } from '../../simulator/create-simulator.js'
import type { FaultDecision, StepRecord } from '../scenario/run-result.js'
import { faultDecisions } from '../scenario/scenario-faults.js'
import { advance } from './drive.js'

/** A step that failed, with the label it had reached (the engine records that label). */
export class StepError extends Error {
  constructor(
    message: string,
    readonly label?: string,
  ) {
    super(message)
    this.name = 'StepError'
  }
}

/** A request a mounted receiver got, as the engine hands it to the runner that mounted it. */
export interface ReceivedDelivery {
  /** When it arrived (virtual ms). */
  readonly at: number
  readonly raw: string
  readonly signatureHeader: string | null
  /** The status answered; 0 when the receiver was down without a status (connection refused). */
  readonly status: number
  /** True for the attacker's re-POST of an old signed delivery (`replay_delivery`). */
  readonly replay: boolean
}

/** One receiver mounted by the engine, which faults and steps take down and bring up. */
export interface EngineReceiver {
  readonly name: string
  readonly url: string
  readonly down: boolean
  /** Takes the receiver down (with `status`, it answers that status instead of refusing the connection) or up. */
  set(down: boolean, status?: number): void
}

/** How to mount a receiver on the engine. */
export interface MountOptions {
  readonly name: string
  readonly url: string
  readonly handler: (request: Request) => Response | Promise<Response>
  readonly down?: boolean
  /** Status a down receiver answers; none: the connection is refused. */
  readonly downStatus?: number | undefined
  /** Sees every request the receiver got and its answer (reading the body costs a copy: only when given). */
  readonly onDelivery?: (delivery: ReceivedDelivery) => void
  /** Called on every switch down or up. */
  readonly onSwitch?: (down: boolean) => void
}

/** The engine's settings. */
export interface EngineOptions {
  /** Called after every step with its record and the fault decisions made during it. */
  readonly onStep?: (step: StepRecord, faults: readonly FaultDecision[]) => void
}

/**
 * The one step engine under both runners, scenarios (`runScenario`) and property programs
 * (`runProgram`, `startRun`, the harness replay of a counterexample): it numbers the steps and moves
 * the fault schedule with them, collects the fault decisions made during each step, records each
 * step (`StepRecord`: when, how long, label, ok), moves the clock, and mounts the run's receivers.
 * Faults that act outside the service are wired here once: a scheduled `receiver_down` takes the
 * named receiver (or every one) down until `receiver_up`, and `replay_delivery` asks the service's
 * delivery area to re-POST its oldest signed delivery once it is `REPLAY_MIN_AGE_MS` old (the one
 * implementation and the one constant). The runners keep only their step vocabulary (requests and
 * client actions; reports, emits, forgeries), their setup and their checks.
 *
 * @example
 * const engine = createEngine(sim)
 * await engine.run('advance', 'advance 1m', () => engine.advance(60_000))
 */
export interface StepEngine {
  readonly sim: Simulator
  /** Steps executed so far. */
  readonly count: number
  readonly steps: readonly StepRecord[]
  /** Every fault decision so far, in order. */
  readonly faults: readonly FaultDecision[]
  /**
   * Executes one step: numbers it, applies its scheduled faults, runs `body` (which may return a
   * better label) and records it. A throw is recorded (`ok: false`, `note`) and rethrown.
   */
  run(kind: string, label: string, body: () => Promise<string | undefined | void>): Promise<StepRecord>
  /** Moves the clock `ms`, firing every timer and letting the work they start finish on the way. */
  advance(ms: number): Promise<void>
  mount(options: MountOptions): EngineReceiver
  receiver(name: string): EngineReceiver | undefined
  /** The fault decisions made since the last call (the runner's own bookkeeping between steps). */
  takeFaults(): FaultDecision[]
}

/**
 * Creates the engine of one run on `sim`.
 *
 * @example
 * const engine = createEngine(sim, { onStep: (s) => console.log(s.label) })
 */
export function createEngine(sim: Simulator, options: EngineOptions = {}): StepEngine {
  const steps: StepRecord[] = []
  const faults: FaultDecision[] = []
  const receivers = new Map<string, EngineReceiver>()
  const names = headerNames(sim.service.kernel.prefix)
  let count = 0
  // Fault decisions are read from the trace as the fault engine makes them.
  const fired: TraceEntry[] = []
  sim.service.kernel.trace.subscribe((e) => {
    if (e.kind === 'fault') fired.push(e)
  })
  const takeFaults = (): FaultDecision[] => {
    if (fired.length === 0) return []
    const decided = faultDecisions(fired.splice(0))
    faults.push(...decided)
    return decided
  }
  // The first signed request any receiver got (what the service's attacker replays), and how many
  // replays are due: a later request with that very header, once it is old enough, is the replay.
  let captured: { header: string; at: number } | undefined
  let replays = 0

  const pick = (entry: FaultEntry): EngineReceiver[] => {
    if (entry.receiver === undefined) return [...receivers.values()]
    const r = receivers.get(entry.receiver)
    return r === undefined ? [] : [r]
  }
  sim.faults.on('receiver_down', (entry) => {
    const rs = pick(entry)
    for (const r of rs) r.set(true, entry.status)
    return rs.length > 0
  })
  sim.faults.on('receiver_up', (entry) => {
    const rs = pick(entry)
    for (const r of rs) r.set(false)
    return rs.length > 0
  })
  sim.faults.on('replay_delivery', () => {
    const scheduled = sim.service.delivery.replay({ minAgeMs: REPLAY_MIN_AGE_MS })
    if (scheduled) replays++
    return scheduled
  })

  function mount(m: MountOptions): EngineReceiver {
    let down = m.down ?? false
    let downStatus = m.downStatus
    const observe = m.onDelivery
    // A refused connection (the transport records `connect_error`, not the receiver's answer).
    const refuse = () => {
      throw Object.assign(new TypeError(`connect ECONNREFUSED ${m.url}`), { code: 'ECONNREFUSED' })
    }
    const plain = (req: Request): Response | Promise<Response> =>
      down ? (downStatus === undefined ? refuse() : new Response('receiver down', { status: downStatus })) : m.handler(req)
    const observed = async (req: Request): Promise<Response> => {
      const header = req.headers.get(names.signature)
      const raw = await req.clone().text()
      const now = sim.clock.now
      let replay = false
      if (header !== null) {
        if (captured === undefined) captured = { header, at: now }
        else if (replays > 0 && header === captured.header && now - captured.at >= REPLAY_MIN_AGE_MS) {
          replay = true
          replays--
        }
      }
      if (down) {
        observe?.({ at: now, raw, signatureHeader: header, status: downStatus ?? 0, replay })
        if (downStatus === undefined) refuse()
        return new Response('receiver down', { status: downStatus })
      }
      const res = await m.handler(req)
      observe?.({ at: now, raw, signatureHeader: header, status: res.status, replay })
      return res
    }
    sim.receivers.mount(m.url, observe === undefined ? plain : observed)
    const r: EngineReceiver = {
      name: m.name,
      url: m.url,
      get down() {
        return down
      },
      set(next, status) {
        down = next
        if (next) downStatus = status ?? m.downStatus
        m.onSwitch?.(next)
      },
    }
    receivers.set(m.name, r)
    return r
  }

  return {
    sim,
    get count() {
      return count
    },
    steps,
    get faults() {
      takeFaults()
      return faults
    },
    async run(kind, label, body) {
      count++
      // Decisions are attributed to steps only for a listener that reads them per step; otherwise
      // they are converted when read (each carries its step anyway).
      const onStep = options.onStep
      if (onStep !== undefined) takeFaults()
      const at = sim.clock.now
      sim.faults.step(count)
      let ok = true
      let note: string | undefined
      let failure: unknown
      let name = label
      try {
        name = (await body()) ?? label
      } catch (error) {
        ok = false
        failure = error
        note = error instanceof Error ? error.message : String(error)
        if (error instanceof StepError && error.label !== undefined) name = error.label
      }
      const record: StepRecord =
        note === undefined
          ? { n: count, at, end: sim.clock.now, kind, label: name, ok }
          : { n: count, at, end: sim.clock.now, kind, label: name, ok, note }
      steps.push(record)
      if (onStep !== undefined) onStep(record, takeFaults())
      if (!ok) throw failure
      return record
    },
    advance: (ms) => advance(sim, ms),
    mount,
    receiver: (name) => receivers.get(name),
    takeFaults,
  }
}
