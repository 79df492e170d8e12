import fc from 'fast-check'
import { type FaultKind, rateLimitReasons } from '#faults/index.js'
import { forgeries, type Step } from '../run/program.js'
import type { HarnessRun } from '../run/run-program.js'
import { checkKinds } from './arbitraries.js'

/** What the model tracks: how many units were asked for and which faults were injected. */
export interface HarnessModel {
  units: number
  events: number
  faults: number
}

/** A model command over a harness run, for `fc.asyncModelRun`. */
export type HarnessCommand = fc.AsyncCommand<HarnessModel, HarnessRun>

class StepCommand implements HarnessCommand {
  constructor(readonly step: Step) {}
  check(): boolean {
    return true
  }
  async run(m: HarnessModel, r: HarnessRun): Promise<void> {
    if (this.step.kind === 'report') m.units += this.step.units
    if (this.step.kind === 'emit') m.events++
    if (this.step.kind === 'burst') m.events += this.step.events
    await r.exec(this.step)
  }
  toString(): string {
    const { kind, ...rest } = this.step
    return `${kind}(${JSON.stringify(rest)})`
  }
}

class FaultCommand implements HarnessCommand {
  constructor(
    readonly fault: FaultKind,
    readonly reason?: (typeof rateLimitReasons)[number],
  ) {}
  check(): boolean {
    return true
  }
  async run(m: HarnessModel, r: HarnessRun): Promise<void> {
    m.faults++
    // After the setup: the run's own fault policy is put in force then (and would disarm it).
    await r.ready
    r.sim.faults.inject({ fault: this.fault, ...(this.reason ? { reason: this.reason } : {}) })
  }
  toString(): string {
    return `fault(${this.fault}${this.reason ? `:${this.reason}` : ''})`
  }
}

/**
 * Model-based commands: report usage, advance the clock, emit (deliver) an event or a burst of
 * them, resend an earlier event later, forge a delivery, take the receiver down or heal it, roll
 * the secret, inject any fault kind now, and restart (redeploy) the receiver. Use them with
 * `fc.commands` and `fc.asyncModelRun`; finish with `run.finish()` and assert on its violations.
 *
 * @example
 * await fc.assert(fc.asyncProperty(fc.integer(), fc.commands(harnessCommands()), async (seed, cmds) => {
 *   const run = startRun(seed, { reporter })
 *   await fc.asyncModelRun(() => ({ model: { units: 0, events: 0, faults: 0 }, real: run }), cmds)
 *   expect((await run.finish()).violations).toEqual([])
 * }))
 */
export function harnessCommands(kinds: readonly FaultKind[] = ['indeterminate', 'session_expiry', 'rate_limit', 'lock_timeout']) {
  checkKinds('harnessCommands', kinds)
  return [
    fc
      .record({ units: fc.integer({ min: 1, max: 5 }), value: fc.integer({ min: 1, max: 9 }) })
      .map((r) => new StepCommand({ kind: 'report', ...r }) as HarnessCommand),
    fc.constantFrom(1_000, 60_000, 600_000).map((ms) => new StepCommand({ kind: 'advance', ms }) as HarnessCommand),
    fc.integer({ min: 0, max: 2 }).map((object) => new StepCommand({ kind: 'emit', object }) as HarnessCommand),
    fc.integer({ min: 1, max: 60 }).map((events) => new StepCommand({ kind: 'burst', events }) as HarnessCommand),
    fc
      .record({ event: fc.nat({ max: 100 }), afterMs: fc.constantFrom(60_000, 24 * 3_600_000) })
      .map((r) => new StepCommand({ kind: 'resend', ...r }) as HarnessCommand),
    fc.constantFrom(...forgeries).map((forgery) => new StepCommand({ kind: 'forge', forgery }) as HarnessCommand),
    fc.boolean().map((up) => new StepCommand({ kind: 'receiver', up }) as HarnessCommand),
    fc.constant(new StepCommand({ kind: 'roll_secret' }) as HarnessCommand),
    fc
      .tuple(fc.constantFrom(...kinds), fc.constantFrom(...rateLimitReasons))
      .map(([k, reason]) => new FaultCommand(k, k === 'rate_limit' ? reason : undefined) as HarnessCommand),
    // Last, so the commands before keep their places.
    fc.constant(new StepCommand({ kind: 'restart' }) as HarnessCommand),
  ]
}
