import type { Admission } from '#domain/service.js'
import type { PipelineContext } from './pipeline-context.js'

/**
 * Admits the request through the service's gates (rate limits, object locks, injected faults), in
 * their order; a gate refuses by throwing, and a release it returns runs once the answer has left.
 *
 * @example
 * limitsStep(ctx) // throws 429 rate_limit past the limit; ctx.releases holds a lock's release
 */
export function limitsStep(ctx: PipelineContext): void {
  const { gates } = ctx.host.service
  if (gates.length === 0) return
  const route = ctx.route!
  const principal = ctx.principal!
  const { method } = ctx
  // One admission for every gate: it is read-only to them.
  const admission: Admission = {
    operation: route.operation,
    method,
    account: principal.account.id,
    authenticated: principal.authenticated.id,
    mode: principal.mode,
    onBehalf: principal.onBehalf,
    objectId: route.object === undefined ? undefined : ctx.params[route.object],
    mutates: route.mutates ?? method !== 'GET',
    inflight: ctx.flight,
    body: ctx.body,
    api: ctx.style,
  }
  for (const gate of gates) {
    const release = gate(admission)
    if (release) {
      ctx.releases ??= []
      ctx.releases.push(release)
    }
  }
}
