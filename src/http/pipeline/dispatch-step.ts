import { HandlerContext } from '../request-context.js'
import type { PipelineContext } from './pipeline-context.js'

/** What the dispatch step returns: the route's answer is in `ctx.answer`, maybe still pending. */
export const AWAIT_ANSWER = 'await answer'

/**
 * Runs the route's handler with a fresh request id. The handler may be async: its answer is left
 * in `ctx.answer` for the runner to await, so no step is an async function of its own.
 *
 * @example
 * if (dispatchStep(ctx) === AWAIT_ANSWER) ctx.answer = await ctx.answer
 */
export function dispatchStep(ctx: PipelineContext): typeof AWAIT_ANSWER {
  const { host, incoming } = ctx
  const request = new HandlerContext({
    service: host.service,
    principal: ctx.principal!,
    params: ctx.params,
    body: ctx.checkedBody,
    query: ctx.checkedQuery,
    method: ctx.method,
    path: ctx.path,
    requestId: host.requestIds.next('req'),
    idempotencyKey: ctx.idempotencyKey,
    version: ctx.version!,
    versionSent: ctx.versionSent,
    aside: ctx.aside,
    inflight: ctx.flight,
    headers: incoming.headers,
  })
  ctx.request = request
  ctx.answer = ctx.route!.handle(request)
  return AWAIT_ANSWER
}
