import type { Simulator } from '#simulator/index.js'
import { createDurableStore, type DurableStore } from '../durable-store.js'
import type { UsageReporter, WebhookReceiver } from '../subjects.js'
import type { RunOptions } from './run-options.js'
import type { Setup } from './setup.js'
import type { MountedReceiver, StepRunner } from './step-runner.js'

/**
 * One usage unit a reporter was asked to report.
 *
 * @example
 * const unit: ReportedUnit = { id: 'u1', customer: 'cus_u1', value: 2 }
 */
export interface ReportedUnit {
  readonly id: string
  readonly customer: string
  readonly value: number
}

/**
 * One event the run emitted, and the state of the object it carries.
 *
 * @example
 * const e: EmittedEvent = { event: 'evt_1', object: 'pi_h0', status: 'processing' }
 */
export interface EmittedEvent {
  readonly event: string
  readonly object: string
  readonly status: string
}

/**
 * What a property run keeps between its steps: the simulator and step runner, the subjects once wired,
 * and what the steps did (units, emitted events, forged objects, secrets seen).
 *
 * @example
 * const state = newRunState('startRun', sim, runner, options)
 */
export interface RunState {
  /** The public API that opened the run, named when a subject misbehaves. */
  readonly api: string
  readonly sim: Simulator
  readonly runner: StepRunner
  readonly options: RunOptions
  /** The seeded `harness.client` stream (jitter, forged secrets). */
  readonly clientRng: { next(): number }
  setup: Setup
  reporter?: UsageReporter | undefined
  // The webhook path is the service's own: an event destination, the real routing, signing, retry
  // scheduler and transport, with the user's receiver mounted in process.
  receiver?: WebhookReceiver | undefined
  destination?: string | undefined
  control?: MountedReceiver | undefined
  /** Events the receiver said it acknowledged without caring (no effect, no state expected of them). */
  readonly skipped: Set<string>
  readonly units: ReportedUnit[]
  /** Each emitted object's state index (into the subject's payment intent states). */
  readonly objects: Map<string, number>
  readonly emitted: EmittedEvent[]
  readonly forgedObjects: string[]
  /** Secrets the endpoint had at some point, to find one a roll retired. */
  readonly seenSecrets: Set<string>
  otherSecret?: string | undefined
  burstObjects: number
  /** The client's durable store: one per run, handed to every instance the factory builds (restarts). */
  readonly store: DurableStore
  /** Restarts of the receiver so far (a redeploy builds a new one from the factory). */
  restarts: number
}

/**
 * A run's state before its setup is made.
 *
 * @example
 * const state = newRunState('runProgram', sim, createStepRunner(sim), options)
 */
export function newRunState(api: string, sim: Simulator, runner: StepRunner, options: RunOptions): RunState {
  return {
    api,
    sim,
    runner,
    options,
    clientRng: sim.service.kernel.rng.stream('harness.client'),
    setup: { customers: [] },
    skipped: new Set(),
    units: [],
    objects: new Map(),
    emitted: [],
    forgedObjects: [],
    seenSecrets: new Set(),
    burstObjects: 0,
    store: createDurableStore(),
    restarts: 0,
  }
}
