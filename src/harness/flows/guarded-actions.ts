import { HarnessInputError } from '../harness-input-error.js'
import { refuseArgument } from '../refuse-argument.js'
import { shownValue } from '../validate-input.js'
import type { FlowAction } from './flow-actions.js'
import { stepProblem } from './flow-program-input.js'

/** Refuses a context that is not a run's: the action would fail deep inside, naming neither. */
function refuseContext(api: string, ctx: unknown): void {
  refuseArgument(api, 'ctx', ctx, 'object')
  const c = ctx as Record<string, unknown>
  refuseArgument(api, 'ctx.sim', c.sim, 'simulator')
  refuseArgument(api, 'ctx.setup', c.setup, 'object')
  const setup = c.setup as Record<string, unknown>
  refuseArgument(api, 'ctx.setup.customers', setup.customers, 'array')
  refuseArgument(api, 'ctx.setup.prices', setup.prices, 'array')
  refuseArgument(api, 'ctx.subscriptions', c.subscriptions, 'array')
  refuseArgument(api, 'ctx.api', c.api, 'function')
}

/** Refuses a step the action cannot carry out as written, or one of another kind (it would do nothing). */
function refuseStep(api: string, kind: string, step: unknown): void {
  const why = stepProblem(step)
  if (why !== undefined) throw new HarnessInputError(`${api}: step ${why}`)
  const given = (step as { kind: unknown }).kind
  if (given !== kind) throw new HarnessInputError(`${api}: step.kind must be '${kind}', got ${shownValue(given)}`)
  if (!kind.startsWith('x:')) return
  // A property's own kinds name what they act on by index, as the built-in kinds do.
  for (const field of ['customer', 'account'] as const) {
    const n = (step as Record<string, unknown>)[field]
    if (n !== undefined && !Number.isInteger(n))
      throw new HarnessInputError(`${api}: step ('${kind}') field '${field}' must be an integer, got ${shownValue(n)}`)
  }
}

/**
 * A record of flow actions whose every action checks its arguments first: the actions are exported
 * for custom flows to call, and a wrong context or step would otherwise fail deep inside with a
 * `TypeError` naming neither, or (a step of another kind) do nothing at all. A refusal is a
 * rejected promise, as the action's own failures are, and happens before any request is sent.
 *
 * @example
 * const actions = guardedActions('flowActions', { async resume(ctx, step) { ... } })
 * await actions.resume?.({}, { kind: 'resume', sub: 0 })
 * // rejects: HarnessInputError: flowActions.resume: ctx.sim must be a simulator (createSimulator), got undefined
 */
export function guardedActions(api: string, actions: Readonly<Record<string, FlowAction>>): Readonly<Record<string, FlowAction>> {
  const guarded: Record<string, FlowAction> = {}
  for (const [kind, act] of Object.entries(actions)) {
    const name = /^[a-z_]+$/.test(kind) ? `${api}.${kind}` : `${api}['${kind}']`
    guarded[kind] = async (ctx, step) => {
      refuseContext(name, ctx)
      refuseStep(name, kind, step)
      return act(ctx, step)
    }
  }
  return Object.freeze(guarded)
}
