import type { LaneOutcome } from './worker-lanes.js'

/**
 * Who holds a slot of a plan, as the lanes write it in shared memory (`Atomics.compareExchange`
 * from `free`: the first lane to swap a slot makes its run).
 *
 * @example
 * Atomics.compareExchange(claims, i, CLAIM.free, CLAIM.worker) === CLAIM.free // this lane runs program i
 */
export const CLAIM = { free: 0, here: 1, worker: 2, dropped: 3 } as const

/** A plan as a worker thread gets it: the programs, and their slots in a `SharedArrayBuffer`. */
export interface PlanMessage {
  readonly plan: { readonly id: number; readonly programs: readonly unknown[]; readonly claims: Int32Array }
}

/** A worker's answer for one slot of a plan. */
export interface PlanResult {
  readonly plan: number
  readonly index: number
  readonly outcome: LaneOutcome
}

/**
 * A worker thread's side of the plans: `take(plan)` when one arrives; the worker then makes the
 * plan's free slots one after another, swapping each before it runs it, and posts each answer, until
 * the plan has no free slot left or a newer plan came. It never waits for the calling thread between
 * runs, so both lanes stay busy to the end of a plan.
 *
 * @example
 * const plans = planRunner((p) => holds(p), (r) => port.postMessage(r))
 * port.on('message', (m) => m.plan && plans.take(m.plan))
 */
export function planRunner(
  run: (program: unknown) => Promise<LaneOutcome>,
  post: (result: PlanResult) => void,
): { take(plan: PlanMessage['plan']): void } {
  let latest: PlanMessage['plan'] | undefined
  let busy = false
  const work = async () => {
    busy = true
    while (latest !== undefined) {
      const plan = latest
      for (let index = 0; index < plan.programs.length && latest === plan; index++) {
        if (Atomics.compareExchange(plan.claims, index, CLAIM.free, CLAIM.worker) !== CLAIM.free) continue
        post({ plan: plan.id, index, outcome: await run(plan.programs[index]) })
      }
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
