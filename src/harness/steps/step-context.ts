import type { Simulator } from '#simulator/index.js'
import type { MountedReceiver, StepRunner } from '../run/step-runner.js'
import type { ClientResponse } from '../scenario/client.js'
import type { RequestSpec } from '../scenario/schema.js'

/**
 * What the step executor needs from the runner it serves: the step runner, the run's variables, and
 * how this runner sends requests, runs client actions, finds receivers and reads admin arguments.
 * The scenario runner and the property harness's run each give one.
 *
 * @example
 * await executeStep(context, { advance: 60_000 })
 */
export interface StepContext {
  readonly sim: Simulator
  readonly runner: StepRunner
  /** `{{name.field}}` templates read these; `save` writes them. */
  readonly vars: Record<string, unknown>
  /** Sends (and records) one request of a `request` or `parallel` step. */
  send(request: RequestSpec): Promise<ClientResponse>
  /** Runs a client action; throws naming the actions there are when it has none of that name. */
  act(action: string, args: Record<string, unknown>): Promise<unknown>
  /** The receiver a `receiver` step switches; undefined: none of that name. */
  receiver(name: string): MountedReceiver | undefined
  /** An admin call argument as `sim.admin` takes it (a scenario's account name becomes its id). */
  adminArg(value: unknown): unknown
}

/**
 * A step that cannot run as written (an unknown action, receiver or admin method).
 *
 * @example
 * throw new StepFailure(`no receiver named '${name}'`)
 */
export class StepFailure extends Error {
  override readonly name = 'StepFailure'
}
