import type { TraceEntry } from '#kernel/index.js'
import type { Simulator } from '#simulator/index.js'
import type { FaultDecision, StepRecord } from '../scenario/run-result.js'
import { faultDecisions } from '../scenario/scenario-faults.js'
import { advance } from './drive.js'
import { runReceivers, wireReceiverFaults } from './run-receivers.js'

/** A step that failed, with the label it had reached (the step runner records that label). */
export class StepError extends Error {
  constructor(
    message: string,
    readonly label?: string,
  ) {
    super(message)
    this.name = 'StepError'
  }
}

/** A request a mounted receiver got, as the step runner hands it to the runner that mounted it. */
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

/** One receiver mounted by the step runner, which faults and steps take down and bring up. */
export interface MountedReceiver {
  readonly name: string
  readonly url: string
  readonly down: boolean
  /** Takes the receiver down (with `status`, it answers that status instead of refusing the connection) or up. */
  set(down: boolean, status?: number): void
}

/** How to mount a receiver on the step runner. */
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

/** The step runner's settings. */
export interface StepRunnerOptions {
  /** Called after every step with its record and the fault decisions made during it. */
  readonly onStep?: (step: StepRecord, faults: readonly FaultDecision[]) => void
}

/**
 * The one step runner under both front ends, scenarios (`runScenario`) and property programs
 * (`runProgram`, `startRun`, the harness replay of a counterexample): it numbers the steps and moves
 * the fault schedule with them, collects the fault decisions made during each step, records each
 * step (`StepRecord`: when, how long, label, ok), moves the clock, and mounts the run's receivers.
 * Faults that act outside the service are wired here once: a scheduled `receiver_down` takes the
 * named receiver (or every one) down until `receiver_up`, and `replay_delivery` asks the service's
 * delivery area to re-POST its oldest signed delivery once it is `REPLAY_MIN_AGE_MS` old (the one
 * implementation and the one constant). The front ends keep only their step vocabulary (requests and
 * client actions; reports, emits, forgeries), their setup and their checks.
 *
 * @example
 * const runner = createStepRunner(sim)
 * await runner.run('advance', 'advance 1m', () => runner.advance(60_000))
 */
export interface StepRunner {
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
  mount(options: MountOptions): MountedReceiver
  receiver(name: string): MountedReceiver | undefined
  /** The fault decisions made since the last call (the runner's own bookkeeping between steps). */
  takeFaults(): FaultDecision[]
}

/** Collects the fault decisions from the trace as the fault engine makes them. */
function faultCollector(sim: Simulator): { all: FaultDecision[]; take(): FaultDecision[] } {
  const all: FaultDecision[] = []
  const fired: TraceEntry[] = []
  sim.service.kernel.trace.subscribe((e) => {
    if (e.kind === 'fault') fired.push(e)
  })
  return {
    all,
    take() {
      if (fired.length === 0) return []
      const decided = faultDecisions(fired.splice(0))
      all.push(...decided)
      return decided
    },
  }
}

/** Runs a step's body, turning a throw into its record (`ok: false`, `note`, the label it reached). */
async function attempt(
  label: string,
  body: () => Promise<string | undefined | void>,
): Promise<{ name: string; note?: string; failure?: unknown }> {
  try {
    return { name: (await body()) ?? label }
  } catch (error) {
    const note = error instanceof Error ? error.message : String(error)
    const name = error instanceof StepError && error.label !== undefined ? error.label : label
    return { name, note, failure: error }
  }
}

/**
 * Creates the step runner of one run on `sim`.
 *
 * @example
 * const runner = createStepRunner(sim, { onStep: (s) => console.log(s.label) })
 */
export function createStepRunner(sim: Simulator, options: StepRunnerOptions = {}): StepRunner {
  const steps: StepRecord[] = []
  const faults = faultCollector(sim)
  const receivers = runReceivers(sim)
  wireReceiverFaults(sim, receivers)
  let count = 0
  return {
    sim,
    get count() {
      return count
    },
    steps,
    get faults() {
      faults.take()
      return faults.all
    },
    async run(kind, label, body) {
      count++
      // Decisions are attributed to steps only for a listener that reads them per step; otherwise
      // they are converted when read (each carries its step anyway).
      const onStep = options.onStep
      if (onStep !== undefined) faults.take()
      const at = sim.clock.now
      sim.faults.step(count)
      const { name, note, failure } = await attempt(label, body)
      const ok = note === undefined
      const record: StepRecord = ok
        ? { n: count, at, end: sim.clock.now, kind, label: name, ok }
        : { n: count, at, end: sim.clock.now, kind, label: name, ok, note }
      steps.push(record)
      if (onStep !== undefined) onStep(record, faults.take())
      if (!ok) throw failure
      return record
    },
    advance(ms) {
      return advance(sim, ms)
    },
    mount(m) {
      return receivers.mount(m)
    },
    receiver(name) {
      return receivers.get(name)
    },
    takeFaults() {
      return faults.take()
    },
  }
}
