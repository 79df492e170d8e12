import { ACCOUNT_ID_PREFIX } from '#catalogue/index.js'
import type { Simulator } from '#simulator/index.js'
import type { StepRunner } from '../run/step-runner.js'
import { StepFailure } from '../steps/step-context.js'
import type { ScenarioClient } from './client.js'
import type { DeliveryRecord, RequestRecord, Verdict } from './run-result.js'
import type { Scenario } from './schema.js'
import { fill } from './template.js'

/**
 * What a scenario run keeps while it runs: the simulator and step runner, the names it gave (accounts,
 * destinations, `save`d values), what it recorded (requests, deliveries, side effects) and its
 * verdicts so far.
 *
 * @example
 * const run = newScenarioRun(scenario, sim, runner, client, baseDir)
 */
export interface ScenarioRun {
  readonly scenario: Scenario
  readonly sim: Simulator
  readonly runner: StepRunner
  readonly client: ScenarioClient
  readonly baseDir: string
  /** `{{name.field}}` template values. */
  readonly vars: Record<string, unknown>
  readonly accounts: Map<string, string>
  readonly destinations: Map<string, string>
  readonly secretsByDestination: Map<string, string[]>
  readonly requests: RequestRecord[]
  readonly deliveries: DeliveryRecord[]
  readonly processed: { receiver: string; eventId: string }[]
  /** Response headers and body of each request, for `expect.headers`, `expect.body` and `expect.request_id`. */
  readonly answers: WeakMap<RequestRecord, { headers: Headers; body: unknown }>
  readonly verdicts: Verdict[]
  /** The step being run (requests are recorded under it) and the first request it sent. */
  stepNo: number
  stepFirst: number
}

/**
 * A scenario run before its setup.
 *
 * @example
 * const run = newScenarioRun(scenario, sim, runner, referenceClient, process.cwd())
 */
export function newScenarioRun(
  scenario: Scenario,
  sim: Simulator,
  runner: StepRunner,
  client: ScenarioClient,
  baseDir: string,
): ScenarioRun {
  return {
    scenario,
    sim,
    runner,
    client,
    baseDir,
    vars: { platform: { id: sim.platform.id } },
    accounts: new Map([['platform', sim.platform.id]]),
    destinations: new Map(),
    secretsByDestination: new Map(),
    requests: [],
    deliveries: [],
    processed: [],
    answers: new WeakMap(),
    verdicts: [],
    stepNo: 0,
    stepFirst: 0,
  }
}

/**
 * The id of an account named in the scenario (`platform`, a setup account, or an id as is).
 *
 * @example
 * accountId(run, 'connected') // 'acct_...'
 */
export function accountId(run: ScenarioRun, ref: string): string {
  const filled = String(fill(ref, run.vars))
  if (filled.startsWith(ACCOUNT_ID_PREFIX)) return filled
  const id = run.accounts.get(filled)
  if (id === undefined) throw new StepFailure(`no account named '${filled}' (known: ${[...run.accounts.keys()].join(', ')})`)
  return id
}
