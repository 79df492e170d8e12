import { DocumentAnswer } from '#domain/document.js'
import { jsonOf } from '#kernel/sealed.js'
import { answerAt } from '../version-edge.js'
import type { PipelineContext } from './pipeline-context.js'

/**
 * Writes the route's answer: JSON in the status the handler set, walked back to an older version
 * when the request pinned one, with its request id, version and idempotency key in the headers. A
 * document (a quote's PDF) is written as it is, never walked or serialised as JSON.
 *
 * @example
 * renderStep(ctx) // ctx.status 200, ctx.text '{"id":"cus_1",…}', ctx.headers['Request-Id']
 */
export function renderStep(ctx: PipelineContext): void {
  const request = ctx.request!
  const { answer, host } = ctx
  const status = request.answerStatus
  if (answer instanceof DocumentAnswer) {
    ctx.reply(status, answer.text, { 'Request-Id': request.requestId, 'Content-Type': answer.contentType })
  } else {
    const version = ctx.version!
    const principal = ctx.principal!
    const result = ctx.walk
      ? answerAt(host.service, { account: principal.account.id, mode: principal.mode }, answer, version, ctx.deferred)
      : answer
    // Set after the literal: a computed name inside it makes V8 build the object the slow way.
    const headers: Record<string, string> = { 'Request-Id': request.requestId }
    headers[host.names.version] = version
    if (ctx.idempotencyKey !== undefined) headers['Idempotency-Key'] = ctx.idempotencyKey
    ctx.reply(status, jsonOf(result), headers)
  }
  if (ctx.idempotencyScope !== undefined) ctx.saveOnLeave = true
}
