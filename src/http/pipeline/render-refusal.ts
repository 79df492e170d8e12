import { errorDocUrl } from '#catalogue/errors.js'
import { ServiceError } from '#domain/service-error.js'
import { jsonOf } from '#kernel/sealed.js'
import { requestLogUrl } from '../request-log-url.js'
import { retiredShadow } from '../routes/retired-routes.js'
import { internalError } from './internal-error.js'
import type { PipelineContext } from './pipeline-context.js'

/**
 * Answers what a step threw, in the error envelope: a ServiceError as it says, anything else as the
 * provider's 500. A refusal of an idempotent request is saved for its key like any answer, except
 * those the client should retry (409, 429, 5xx), whose key is forgotten so the retry runs for real.
 *
 * @example
 * renderRefusal(ctx, tableError('url_unrecognized', { method, path })) // ctx.status 404
 */
export function renderRefusal(ctx: PipelineContext, caught: unknown): void {
  let error = caught instanceof ServiceError ? caught : internalError(ctx.host, caught, ctx.flight)
  const { route, version } = ctx
  // Looked at on the refusal of a placeholder route only (a retired literal path is read as an
  // id there), so an answered current-version request reads no version data.
  if (route?.path.includes(':') && version !== undefined && error.status >= 400 && error.status < 500) {
    error = retiredShadow(ctx.method, ctx.path, route, version) ?? error
  }
  replyWithError(ctx, error, version)
  const scope = ctx.idempotencyScope
  if (scope === undefined) return
  if (error.status === 409 || error.status === 429 || error.status >= 500) {
    ctx.host.idempotency.abandon(scope, ctx.idempotencyKey!)
  } else ctx.saveOnLeave = true
}

/**
 * The error envelope of a refusal, with a request id (unless the error says it has none) and the
 * version when one was read. A `/v1` envelope carries what the provider's own carries: the code's
 * `doc_url` and, with a request id, the `request_log_url` of the request's record; `/v2` errors
 * have neither in their schema.
 *
 * @example
 * replyWithError(ctx, error, undefined) // ctx.status error.status, ctx.text '{"error":{…}}'
 */
export function replyWithError(ctx: PipelineContext, error: ServiceError, version: string | undefined): void {
  const { host } = ctx
  const headers: Record<string, string> = { ...error.headers }
  const requestId = error.noRequestId ? undefined : host.requestIds.next('req')
  if (requestId !== undefined) headers['Request-Id'] = requestId
  if (version !== undefined) headers[host.names.version] = version
  const envelope = error.toJSON()
  if (ctx.style === 'v1') {
    const body = envelope.error
    body.doc_url ??= errorDocUrl(error.code)
    if (requestId !== undefined) body.request_log_url = requestLogUrl(ctx.incoming.url.href, requestId)
  }
  ctx.reply(error.status, jsonOf(envelope), headers)
}
