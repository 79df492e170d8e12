import { catalogueParams } from '../operation-params.js'
import type { PipelineContext } from './pipeline-context.js'

/**
 * Checks the params against the operation's declared params type and coerces them (form strings
 * to numbers and booleans), refusing with the provider's 400 naming the parameter.
 *
 * @example
 * paramsStep(ctx) // ctx.checkedBody { amount: 500 } for a form body `amount=500`
 */
export function paramsStep(ctx: PipelineContext): void {
  const checked = catalogueParams.check(ctx.route!, ctx.method, ctx.body, ctx.query, ctx.style)
  ctx.checkedBody = checked.body
  ctx.checkedQuery = checked.query
}
