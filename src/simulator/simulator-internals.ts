import { resolveFaultPolicy } from '#faults/fault-policy.js'
import { adoptFaults } from '#faults/install-faults.js'
import type { IncomingExchangeHandler } from '#http/handler.js'
import type { Receivers } from '#http/receivers.js'
import { fromPlain, type Plain, toPlain } from '#kernel/plain.js'
import { createRng } from '#kernel/rng.js'
import { traceInternals } from '#kernel/trace.js'
import type { ContinueOptions, SimulatorOptions } from './simulator-options.js'
import type { SimulatorParts } from './simulator-parts.js'
import { type Capture, captureOptions, SNAPSHOT_FORMAT, type Snapshot, type SnapshotOptions } from './snapshot.js'

/** A capture made once for the forks of a kept simulator, valid while its `mark` holds. */
interface KeptCapture {
  readonly capture: Capture
  readonly options: SimulatorOptions
  readonly saved: Readonly<Record<string, Plain>>
  readonly mark: string
}

/**
 * What a simulator keeps beyond its public surface, and what the package's own modules reach
 * (`continueAs`, `keepForForks`, `incomingExchangeOf`): the options a snapshot saves, the seed in
 * force, and the captures snapshots and forks are made of.
 *
 * @example
 * const internals = new SimulatorInternals(parts, options)
 * internals.continueWith({ seed: 7 })
 * internals.snapshot().options.seed // 7
 */
export class SimulatorInternals {
  readonly #parts: SimulatorParts
  #saved: Readonly<Record<string, Plain>>
  #seedNow: string
  // A simulator that is only forked from now on (`keepForForks`) makes its capture once: every
  // fork loads the same one (the parts copy what they change as they load it), while its state is
  // as it was when the capture was made (the trace's length, the time, the pending work and the
  // options tell; a request changes the trace). What changes without a trace entry is taken anew
  // per fork: the receivers mounted and the fault controller's part (a step, an injected fault).
  #kept: KeptCapture | undefined
  #keeping = false
  #adminRead = false

  constructor(parts: SimulatorParts, options: SimulatorOptions) {
    this.#parts = parts
    this.#saved = captureOptions(options) as Readonly<Record<string, Plain>>
    this.#seedNow = String(options.seed ?? 0)
  }

  /** The seed this simulation runs on now. */
  get seed(): string {
    return this.#seedNow
  }

  /** The exchange of a request its server has already read (`service-sim serve`). */
  get exchange(): IncomingExchangeHandler {
    return this.#parts.exchangeIncoming
  }

  /** Goes on with another seed and fault policy (`continueAs`), at rest. */
  continueWith(next: ContinueOptions, api = 'continueAs'): void {
    if (typeof next?.seed !== 'string' && !(typeof next?.seed === 'number' && Number.isFinite(next.seed)))
      throw new TypeError(`${api}: 'seed' must be a finite number or a string, got ${String(next?.seed)}`)
    // A misspelt `faults` would go on silently with none.
    for (const key in next)
      if (key !== 'seed' && key !== 'faults')
        throw new TypeError(`${api}: unknown option '${key}'; the options are 'seed' and 'faults'`)
    const { timeline, trace, rng, service, faults } = this.#parts
    if (timeline.active.size > 0) throw new Error(`continueAs: ${timeline.active.size} request(s) in flight; continue at rest`)
    const input = next.faults ?? {}
    // A fork that refuses its faults is dropped whole; a simulator going on in place must refuse
    // them before its trace, seed or policy change (resolved once more, on a stream of its own).
    if (api === 'continueAs') resolveFaultPolicy(input, createRng(next.seed).stream('faults'), api)
    trace.append('simulator.continued', { seed: String(next.seed) })
    rng.reseed(next.seed)
    this.#seedNow = String(next.seed)
    adoptFaults(service, faults, input, api)
    // The saved options with these two replaced, as `captureOptions` of the decoded ones would
    // give them (plain data encodes member by member), without decoding and encoding the rest.
    this.#saved = { ...this.#saved, seed: toPlain(next.seed, 'options.seed'), faults: toPlain(input, 'options.faults') }
  }

  /** Declares the simulator only forked from now on, unless its admin was read (`keepForForks`). */
  keep(): void {
    this.#keeping = !this.#adminRead
  }

  /**
   * The admin surface changes state without trace entries (delivery fault knobs, certificates,
   * held locks...), which a kept capture cannot see: a kept simulator touched through it goes back
   * to a capture per fork, for good (a caller may hold the admin object).
   */
  adminRead(): void {
    this.#adminRead = true
    this.#keeping = false
    this.#kept = undefined
  }

  /** The options and capture a fork is built from. */
  forkSource(): [SimulatorOptions, Capture] {
    if (!this.#keeping) return [fromPlain<SnapshotOptions>(this.#saved), this.capture(false)]
    const { trace, clock, scheduler, kernel } = this.#parts
    const mark = `${trace.length}|${clock.now}|${scheduler.pending}`
    let kept = this.#kept
    if (kept === undefined || kept.mark !== mark || kept.saved !== this.#saved) {
      kept = { capture: this.capture(false), options: fromPlain<SnapshotOptions>(this.#saved), saved: this.#saved, mark }
      this.#kept = kept
    }
    // The trace's loaded arrays become the fork's own: copied per fork (a few arrays).
    const state = { ...kept.capture.state, faults: kernel.state.copyOf('faults') }
    return [kept.options, { ...kept.capture, trace: traceInternals(trace).copy(), state, receivers: this.mounted() }]
  }

  /** The state at rest: plain data (`json`, for a snapshot) or an in-process copy (for a fork). */
  capture(json: boolean): Capture {
    const { timeline, scheduler, trace, clock, rng, kernel, faults } = this.#parts
    if (timeline.active.size > 0) {
      throw new Error(
        `snapshot: ${timeline.active.size} request(s) in flight; take snapshots at rest (after the responses arrive and sim.settle())`,
      )
    }
    const tasks = scheduler.save()
    const t = traceInternals(trace)
    return {
      now: clock.now,
      rng: rng.save(),
      trace: json ? t.save() : t.copy(),
      state: json ? kernel.state.save() : kernel.state.copy(),
      copied: !json,
      ...(json ? {} : { policy: faults.policy }),
      tasks,
      receivers: json ? undefined : this.mounted(),
    }
  }

  /** The receivers mounted now, to mount in a fork. */
  mounted(): NonNullable<Capture['receivers']> {
    const { receivers } = this.#parts
    return receivers.urls().map((url) => [url, receivers.get(url) as NonNullable<ReturnType<Receivers['get']>>])
  }

  /** The whole state as plain data (`sim.snapshot()`). */
  snapshot(): Snapshot {
    const c = this.capture(true)
    return {
      format: SNAPSHOT_FORMAT,
      version: 3,
      options: this.#saved,
      now: c.now,
      rng: c.rng,
      trace: c.trace as Snapshot['trace'],
      state: c.state,
      tasks: c.tasks,
      receivers: this.#parts.receivers.urls(),
    }
  }
}
