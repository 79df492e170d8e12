import { StepError } from '../run/step-runner.js'
import { eachStep, executeStep } from '../steps/execute-step.js'
import { type StepContext, StepFailure } from '../steps/step-context.js'
import { stepKindOf } from '../steps/step-kinds.js'
import { labelOf } from '../steps/step-label.js'
import type { ClientContext } from './client.js'
import type { ScenarioRun } from './scenario-run.js'
import type { RequestSpec, StepSpec } from './schema.js'
import { sendRequest } from './send-request.js'
import { checkStepExpectation } from './step-expectation.js'

/** What a client action gets: requests recorded as the client's, sleep on the step runner, seeded jitter. */
function clientContextOf(run: ScenarioRun): ClientContext {
  const clientRng = run.sim.service.kernel.rng.stream('harness.client')
  return {
    sim: run.sim,
    vars: run.vars,
    request: (r) => sendRequest(run, r, 'client'),
    sleep: (ms) => run.runner.advance(ms),
    random: () => clientRng.next(),
    prefix: run.sim.service.kernel.prefix,
  }
}

/**
 * The step context of a scenario: requests through `sim.fetch`, recorded under their step; the
 * client module's actions; the receivers of the setup; account names as admin arguments.
 *
 * @example
 * await executeStep(scenarioContext(run), { request: { method: 'GET', path: '/v1/account' } })
 */
export function scenarioContext(run: ScenarioRun): StepContext {
  const client = clientContextOf(run)
  const actions = run.client.actions ?? {}
  return {
    sim: run.sim,
    runner: run.runner,
    vars: run.vars,
    send: (r: RequestSpec) => sendRequest(run, r, 'workload'),
    act: async (name, args) => {
      const action = run.client.actions?.[name]
      if (action === undefined)
        throw new StepFailure(`the client has no action '${name}' (has: ${Object.keys(actions).join(', ') || 'none'})`)
      return action(client, args)
    },
    receiver: (name) => run.runner.receiver(name),
    adminArg: (v) => (typeof v === 'string' && run.accounts.has(v) ? run.accounts.get(v) : v),
  }
}

/** One scenario step: its action, then its `expect` on the requests it sent; a failure is a verdict. */
async function act(run: ScenarioRun, context: StepContext, step: StepSpec): Promise<string> {
  let label = step.label ?? stepKindOf(step)
  try {
    label = labelOf(step, run.vars)
    await executeStep(context, step)
  } catch (error) {
    const note = error instanceof Error ? error.message : String(error)
    run.verdicts.push({ name: `step ${run.stepNo} (${label})`, ok: false, message: `the step failed: ${note}` })
    throw new StepError(note, label)
  }
  checkStepExpectation(run, step, run.requests.slice(run.stepFirst), label)
  return label
}

/**
 * Runs the scenario's workload step by step on the step runner; the first failing step ends it (a
 * `StepFailure`, its verdict already recorded).
 *
 * @example
 * await runWorkload(run)
 */
export async function runWorkload(run: ScenarioRun): Promise<void> {
  const context = scenarioContext(run)
  await eachStep(run.scenario.workload, async (step) => {
    run.stepNo = run.runner.count + 1
    run.stepFirst = run.requests.length
    const kind = stepKindOf(step)
    try {
      await run.runner.run(kind, step.label ?? kind, () => act(run, context, step))
    } catch (error) {
      throw new StepFailure(error instanceof Error ? error.message : String(error))
    }
  })
}
