import { scopeKey } from '#domain/mode.js'
import type { PipelineContext } from './pipeline-context.js'

/**
 * Begins an idempotent request (a POST with `Idempotency-Key`, or a `/v2` DELETE): the first with a
 * key runs and its answer is saved once it has left; a repeat with the same request replays that
 * answer, and one with other params, or while the first is in flight, is refused.
 *
 * @example
 * idempotencyStep(ctx) // a repeat: ctx.answered, with `Idempotent-Replayed: true`
 */
export function idempotencyStep(ctx: PipelineContext): void {
  const key = ctx.idempotencyKey
  const { method, incoming } = ctx
  if (key === undefined || !(method === 'POST' || (method === 'DELETE' && ctx.style === 'v2'))) return
  const principal = ctx.principal!
  const scope = scopeKey({ account: principal.account.id, mode: principal.mode })
  const { host } = ctx
  const fingerprint = `${method} ${ctx.path}${incoming.url.search}\n${incoming.text}`
  const stored = host.idempotency.begin(scope, key, fingerprint)
  if (stored === undefined) {
    ctx.idempotencyScope = scope
    return
  }
  host.service.kernel.trace.append('http.replayed', { key, request_id: stored.requestId })
  ctx.reply(stored.status, stored.text, {
    'Request-Id': stored.requestId,
    [host.names.version]: ctx.version!,
    'Idempotency-Key': key,
    'Idempotent-Replayed': 'true',
  })
}
