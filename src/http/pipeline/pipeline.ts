import { authenticateStep } from './authenticate-step.js'
import { decodeStep } from './decode-step.js'
import { AWAIT_ANSWER, dispatchStep } from './dispatch-step.js'
import { idempotencyKeyStep } from './idempotency-key-step.js'
import { idempotencyStep } from './idempotency-step.js'
import { limitsStep } from './limits-step.js'
import { paramsStep } from './params-step.js'
import type { PipelineContext } from './pipeline-context.js'
import { renderRefusal } from './render-refusal.js'
import { renderStep } from './render-step.js'
import { routeStep } from './route-step.js'
import { scopeStep } from './scope-step.js'
import { versionStep } from './version-step.js'
import { walkForwardStep } from './walk-forward-step.js'

/**
 * One step of the request path: a plain function of the request's context that reads what earlier
 * steps found and fills in its own part, refuses by throwing (a ServiceError for the provider's
 * answer), or answers early with `ctx.reply` (an idempotent replay). Only the dispatch step waits:
 * it returns {@link AWAIT_ANSWER} and the runner awaits the route's answer in `ctx.answer`.
 *
 * @example
 * const step: Step = (ctx) => { if (ctx.method === 'PUT') throw tableError('url_unrecognized', { method: ctx.method, path: ctx.path }) }
 */
export type Step = (ctx: PipelineContext) => void | typeof AWAIT_ANSWER

/**
 * The request path, in order. The order is the provider's: which refusal a request gets when
 * several apply (an unknown path before a missing key, a bad key before a bad body, a limit before
 * a bad param) follows from it, so it is part of the answers.
 */
export const requestPipeline: readonly Step[] = [
  routeStep, // the route, or 404/405
  authenticateStep, // who the request acts as
  versionStep, // the version in force; an older version's own routes
  idempotencyKeyStep, // a key that can be echoed
  decodeStep, // body and query as plain objects
  walkForwardStep, // an older version's params as current ones
  scopeStep, // a publishable key reaches only its client secret's object
  limitsStep, // the service's gates: limits, locks, faults
  paramsStep, // the params as the operation declares them
  idempotencyStep, // a repeat replays the first answer
  dispatchStep, // the route's handler
  renderStep, // the answer in the envelope, at the request's version
]

/**
 * Runs the steps over one request until one answers: what a step throws is answered by
 * {@link renderRefusal}. It awaits nothing but the route's answer.
 *
 * @example
 * await runPipeline(new PipelineContext(host, incoming, flight), requestPipeline)
 */
export async function runPipeline(ctx: PipelineContext, steps: readonly Step[]): Promise<void> {
  try {
    // Indexed, not `for…of`: an iterator held across the await would be one more object per request.
    for (let i = 0; i < steps.length; i++) {
      if (steps[i]!(ctx) === AWAIT_ANSWER) ctx.answer = await ctx.answer
      if (ctx.answered) return
    }
  } catch (caught) {
    renderRefusal(ctx, caught)
  }
}
