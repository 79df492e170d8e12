import fc from 'fast-check'
import { HarnessInputError } from '../validate-input.js'
import { lookahead } from './lookahead-arbitrary.js'
import type { SubjectRecipe } from './subject-recipe.js'
import type { LaneOutcome, WorkerLanes } from './worker-lanes.js'
import { assertTransferable, workerPlanOf } from './workers-option.js'

/** What a check's subject is, for a worker thread to make it: the user's factory and the property's kind. */
export interface RemoteSubject {
  readonly factory: unknown
  readonly subject: SubjectRecipe['subject']
}

/**
 * A check's runs spread over worker threads with fast-check's walk unchanged: `check` is
 * `fc.check` with the runs made ahead on the workers in the order fast-check asks for them (the
 * generated programs first, then each shrink's candidates), so the first failing run, the shrink
 * path and the counterexample are those of a run in one thread; `fails` and `ahead` serve the
 * greedy minimisation after it the same way.
 *
 * @example
 * const runs = await parallelRunsFor('checkDunning', 2, { factory: referenceDunningClient, subject: { kind: 'dunning' } }, {})
 */
export interface ParallelRuns {
  check<P>(
    arb: fc.Arbitrary<P>,
    params: { readonly numRuns: number; readonly seed: number },
    observe?: (outcome: { readonly ok: boolean; readonly coverage?: readonly string[] }) => void,
  ): Promise<fc.RunDetails<[P]>>
  /** The minimisation's predicate: the run found violations (a run that throws does not count). */
  fails(program: unknown): Promise<boolean>
  /** The minimisation's next candidates, in order. */
  ahead(programs: readonly unknown[]): void
  close(): Promise<void>
}

function thrown(outcome: LaneOutcome): Error | undefined {
  if (!('error' in outcome)) return undefined
  return outcome.error.harnessInput ? new HarnessInputError(outcome.error.message) : new Error(outcome.error.message)
}

/**
 * What a run answers: whether the property held, and for a flow run the combinations it reached
 * (counted in the calling thread, in fast-check's order, so a check's coverage is the same on any
 * number of threads).
 */
export type RunVerdict = boolean | { readonly ok: boolean; readonly coverage?: readonly string[] }

/** This thread's answer for a run, as a worker gives it. */
async function answer(holds: (program: unknown) => Promise<RunVerdict>, program: unknown): Promise<LaneOutcome> {
  try {
    const verdict = await holds(program)
    return typeof verdict === 'boolean' ? { ok: verdict } : verdict
  } catch (error) {
    const e = error as Error
    return { error: { message: String(e?.message ?? e), harnessInput: e instanceof HarnessInputError } }
  }
}

function runsOn(lanes: WorkerLanes, depth: number): ParallelRuns {
  return {
    async check<P>(
      arb: fc.Arbitrary<P>,
      { numRuns, seed }: { readonly numRuns: number; readonly seed: number },
      observe?: (outcome: { readonly ok: boolean; readonly coverage?: readonly string[] }) => void,
    ) {
      const holds = async (p: unknown): Promise<boolean> => {
        const outcome = await lanes.outcome(p)
        const error = thrown(outcome)
        if (error !== undefined) throw error
        const judged = outcome as { readonly ok: boolean; readonly coverage?: readonly string[] }
        observe?.(judged)
        return judged.ok
      }
      // The values fast-check will generate, in its order (fc.sample draws them as fc.check does).
      lanes.ahead(fc.sample(arb, { numRuns, seed }))
      const walked = lookahead(arb, depth, (next) => lanes.ahead(next))
      const details = await fc.check(
        fc.asyncProperty(walked, (p: P) => holds(p)),
        { numRuns, seed, endOnFailure: false },
      )
      // A worker that cannot start is the caller's error, not a counterexample, even when this
      // thread made every run before the worker said so.
      await lanes.started()
      if (lanes.failure !== undefined) throw lanes.failure
      return details
    },
    async fails(p) {
      const outcome = await lanes.outcome(p)
      return 'ok' in outcome && !outcome.ok
    },
    ahead: (programs) => lanes.ahead(programs.slice(0, depth)),
    close: () => lanes.close(),
  }
}

/**
 * Reads a check's `workers` option and, when it asks for more than one thread, starts them:
 * `undefined` means run in this thread. Refuses (`HarnessInputError`, naming the option) a bad
 * count, a factory a worker thread cannot reach, and run options that cannot cross to a thread.
 *
 * @example
 * const runs = await parallelRunsFor('checkDunning', options.workers, { factory, subject: { kind: 'dunning' } }, run)
 */
export async function parallelRunsFor(
  api: string,
  workers: unknown,
  remote: RemoteSubject | undefined,
  run: Readonly<Record<string, unknown>>,
  holds: (program: never) => Promise<RunVerdict>,
): Promise<ParallelRuns | undefined> {
  if (workers === undefined) return undefined
  const plan = await workerPlanOf(api, workers, remote?.factory)
  if (plan === undefined) return undefined
  if (remote === undefined)
    throw new HarnessInputError(
      `${api}: option 'workers' needs a subject a worker thread can make: use checkSubscriptionMirror, checkDunning or checkFulfilment`,
    )
  assertTransferable(api, run)
  const recipe = { api, subject: remote.subject, run } as SubjectRecipe
  const local = (p: unknown) => answer(holds as (program: unknown) => Promise<RunVerdict>, p)
  // Imported when asked for: the package's build keeps the lanes beside the worker file they start.
  const { WorkerLanes: Lanes } = await import('./worker-lanes.js')
  return runsOn(Lanes.open(api, plan.count, plan.factory, recipe, local), plan.count)
}
