import type { LaneOutcome } from './worker-lanes.js'

/**
 * Who holds a slot of a plan, as the lanes write it in shared memory (`Atomics.compareExchange`
 * from `free`: the first lane to swap a slot makes its run).
 *
 * @example
 * Atomics.compareExchange(claims, i, CLAIM.free, CLAIM.worker) === CLAIM.free // this lane runs program i
 */
export const CLAIM = { free: 0, here: 1, worker: 2, dropped: 3 } as const

/**
 * A plan as a worker thread gets it: the programs, their slots in a `SharedArrayBuffer`, and
 * `hurry`, one shared flag the calling thread sets (to 1) when it wants every answer as soon as it
 * is made: one of its own runs failed (fast-check will shrink once it has the answers before it) or
 * its lane has no free slot left to take.
 */
export interface PlanMessage {
  readonly plan: {
    readonly id: number
    readonly programs: readonly unknown[]
    readonly claims: Int32Array
    readonly hurry: Int32Array
  }
}

/** A worker's answer for one slot of a plan. */
export interface PlanResult {
  readonly plan: number
  readonly index: number
  readonly outcome: LaneOutcome
}

/**
 * Answers a worker holds back before it posts them together. Each message wakes the calling
 * thread, which cost it about half a millisecond of CPU on a 2-core VM (with its lane idle: 92-99
 * ms per 120 answers posted one by one, 40-48 ms held back), time its own lane then does not run.
 *
 * @example
 * if (held.length >= BATCH) port.postMessage(held.splice(0))
 */
export const BATCH = 16

/** Whether an answer must go at once: a failure, or the calling thread asked for haste. */
function urgent(outcome: LaneOutcome, hurry: Int32Array): boolean {
  return !('ok' in outcome) || !outcome.ok || Atomics.load(hurry, 0) !== 0
}

/**
 * A worker thread's side of the plans: `take(plan)` when one arrives; the worker then makes the
 * plan's free slots one after another, swapping each before it runs it, until the plan has no free
 * slot left or a newer plan came. It never waits for the calling thread between runs, so both lanes
 * stay busy to the end of a plan. It posts its answers in batches: at once for a failure or when
 * the plan's `hurry` is set, else every `BATCH` answers and when it leaves the plan, so the calling
 * thread is woken once per batch rather than once per run, and never waits on a held answer
 * without having asked for haste (it only waits when its lane is idle, and then it sets `hurry`).
 *
 * @example
 * const plans = planRunner((p) => holds(p), (rs) => port.postMessage(rs))
 * port.on('message', (m) => m.plan && plans.take(m.plan))
 */
export function planRunner(
  run: (program: unknown) => Promise<LaneOutcome>,
  post: (results: readonly PlanResult[]) => void,
): { take(plan: PlanMessage['plan']): void } {
  let latest: PlanMessage['plan'] | undefined
  let busy = false
  const held: PlanResult[] = []
  const flush = () => {
    if (held.length > 0) post(held.splice(0))
  }
  const work = async () => {
    busy = true
    while (latest !== undefined) {
      const plan = latest
      for (let index = 0; index < plan.programs.length && latest === plan; index++) {
        if (Atomics.compareExchange(plan.claims, index, CLAIM.free, CLAIM.worker) !== CLAIM.free) continue
        const outcome = await run(plan.programs[index])
        held.push({ plan: plan.id, index, outcome })
        if (held.length >= BATCH || urgent(outcome, plan.hurry)) flush()
      }
      flush()
      if (latest === plan) latest = undefined
    }
    busy = false
  }
  return {
    take(plan) {
      latest = plan
      if (!busy) void work()
    },
  }
}
