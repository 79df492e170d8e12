import type { History } from '../checkers/checker.js'
import { checkerRegistry, verdictOf } from '../checkers/checker-registry.js'
import { evaluateExpectations } from './expectations.js'
import type { Verdict } from './run-result.js'
import { faultsFiredVerdict } from './scenario-faults.js'
import { accountId, type ScenarioRun } from './scenario-run.js'

/** The verdicts of the checkers the scenario names (an unknown name is a failed verdict). */
async function checkerVerdicts(run: ScenarioRun, rerun: () => Promise<string>): Promise<Verdict[]> {
  const { sim, requests, deliveries } = run
  // The trace is read only by a checker that asks for it.
  const history: History = {
    get entries() {
      return sim.trace.entries()
    },
    requests,
    deliveries,
    sim,
    rerun,
  }
  const out: Verdict[] = []
  for (const name of run.scenario.expectations.checkers) {
    const checker = checkerRegistry.get(name)
    out.push(
      checker === undefined
        ? {
            name: `checker ${name}`,
            ok: false,
            message: `unknown checker; known: ${[...checkerRegistry.keys()].sort().join(', ')}`,
          }
        : await verdictOf(checker, history),
    )
  }
  return out
}

/**
 * After the workload: whether the configured faults fired, the `expectations` section, and the
 * named checkers, pushed onto the run's verdicts.
 *
 * @example
 * await judgeScenario(run, () => rerunHash())
 */
export async function judgeScenario(run: ScenarioRun, rerun: () => Promise<string>): Promise<void> {
  const { scenario, sim, requests, deliveries, processed } = run
  run.runner.takeFaults()
  const fired = faultsFiredVerdict(sim, run.runner.faults)
  if (fired) run.verdicts.push(fired)
  run.verdicts.push(
    ...evaluateExpectations({
      scenario,
      sim,
      requests,
      deliveries,
      processed,
      resolveAccount: (name) => accountId(run, name),
      destinationId: (name) => run.destinations.get(name),
    }),
  )
  run.verdicts.push(...(await checkerVerdicts(run, rerun)))
}
