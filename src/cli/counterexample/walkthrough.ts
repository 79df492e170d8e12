/**
 * What happened at one point of a replayed counterexample, as the step-through draws it between
 * the provider's lane and the app's: a request the app made (`request`), an event the provider
 * emitted (`event`), a delivery to the app with its answer (`delivery`), a fault that fired
 * (`fault`), the receiver going down or up (`receiver`), a redeploy of the app (`redeploy`), an
 * attacker's forged delivery and the app's answer (`forged`), something the app did with what it
 * knew and the provider's state (`action`), and a note on either lane (`note`: the app's own
 * records, a delivery given up). `seq` is the trace entry's; `witness` names the violated checks it witnesses.
 *
 * @example
 * const m: Moment = { kind: 'event', seq: 40, at: 0, id: 'evt_1', type: 'customer.created' }
 */
export type Moment = (
  | {
      readonly kind: 'request'
      readonly method: string
      readonly path: string
      readonly status: number
      readonly requestId?: string
      readonly request?: string
      readonly response?: string
    }
  | { readonly kind: 'event'; readonly id: string; readonly type: string }
  | {
      readonly kind: 'delivery'
      readonly event: string
      readonly type?: string
      readonly destination: string
      readonly attempt: number
      readonly trigger: string
      readonly outcome: string
      readonly status: number | null
      readonly duration: number
      /** The body the app answered (its first 4 KiB), when it answered. */
      readonly answer?: string
      readonly next: number | null
    }
  | { readonly kind: 'fault'; readonly fault: string; readonly source: string; readonly detail: string }
  | {
      readonly kind: 'note'
      readonly lane: 'provider' | 'app'
      readonly what: string
      readonly detail: string
      /** The note in words (the entry's fields read out), when the step-through knows the kind. */
      readonly says?: string
    }
  | { readonly kind: 'receiver'; readonly down: boolean }
  /** The app was redeployed: its memory lost, its database kept; `reason` is `start`, `deploy` or `roll`. */
  | { readonly kind: 'redeploy'; readonly reason: string; readonly restart: number }
  /** An attacker's delivery handed to the app, and what the app answered (`accepted`, `refused`, `timeout`). */
  | {
      readonly kind: 'forged'
      readonly forgery: string
      readonly event: string
      readonly type?: string
      readonly object: string
      readonly outcome: string
      readonly status: number | null
    }
  /**
   * Something the app did (`env.effects.record`): the action and the object it is about, the event
   * it was handling, what it knew of the object, and the provider's state of it at that moment.
   */
  | {
      readonly kind: 'action'
      readonly action: string
      readonly key: string
      readonly handled?: string
      readonly knew?: string
      readonly provider?: string
      readonly detail: string
    }
) & { readonly seq: number; readonly at: number; readonly witness?: readonly string[] }

/**
 * One program step of the counterexample and what happened while it ran. The setup before the
 * first step is step 0; what the run did after its last step (the final settling of deliveries
 * and the checks) is one more step, `end`.
 *
 * @example
 * const step: WalkStep = { n: 1, at: 0, end: 0, label: 'emit customer.created', ok: true, moments: [], hidden: 3 }
 */
export interface WalkStep {
  readonly n: number
  readonly at: number
  readonly end: number
  readonly label: string
  readonly ok: boolean
  readonly note?: string
  readonly moments: readonly Moment[]
  /** Trace entries of the step the picture leaves out (bookkeeping: ledger, locks, schedules). */
  readonly hidden: number
}

/**
 * A verdict of the replay: a checker's violation with the trace entries (`seq`) that witness it,
 * or a check that held.
 *
 * @example
 * const v: WalkVerdict = { name: 'checker receivers.idempotent', ok: false, message: 'evt_1 processed twice', witness: [40, 52] }
 */
export interface WalkVerdict {
  readonly name: string
  readonly ok: boolean
  readonly message: string
  readonly witness: readonly number[]
}

/**
 * A counterexample replayed for the dashboard's step-through: the file it came from, its seed and
 * trace hash, whether the replay reproduced the recorded hash, the verdicts, and the steps with
 * their moments. Built by replaying the file's program (the file holds the program, not what
 * happened), so it costs nothing to keep counterexamples small.
 *
 * @example
 * const walk: Walkthrough = await replayWalkthrough('counterexamples/no-dedup-7.json')
 * walk.steps[walk.violationStep]?.moments.filter((m) => m.witness)
 */
export interface Walkthrough {
  readonly file: string
  readonly name: string
  readonly description: string
  readonly seed: string
  readonly traceHash: string
  readonly traceLength: number
  /** The virtual time the run started at (times are shown from it). */
  readonly start: number
  readonly ok: boolean
  readonly verdicts: readonly WalkVerdict[]
  readonly steps: readonly WalkStep[]
  /** Index in `steps` of the step holding the last witness of a violation, or -1 when none failed. */
  readonly violationStep: number
}

/**
 * One counterexample file the dashboard can open: its name (in its directory), size and when it
 * was written (wall time, ISO).
 *
 * @example
 * const f: CounterexampleFile = { name: 'no-dedup-7.json', size: 1234, modified: '2026-01-01T00:00:00.000Z' }
 */
export interface CounterexampleFile {
  readonly name: string
  readonly size: number
  readonly modified: string
}
