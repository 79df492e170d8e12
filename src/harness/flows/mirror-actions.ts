import type { FlowAction, FlowActionContext } from './flow-actions.js'

/** The subscription a step's number names, wrapping around: -1 is the newest. */
function subscriptionAt(ctx: FlowActionContext, n: unknown): string | undefined {
  const count = ctx.subscriptions.length
  if (count === 0) return undefined
  const i = Number(n)
  return ctx.subscriptions[(((Number.isInteger(i) ? i : -1) % count) + count) % count]
}

/**
 * The actions of the mirror flows' own step kinds: `x:pause` pauses a subscription
 * (`subscriptions.pause`: status `paused`, `customer.subscription.paused`, no invoices until it is
 * resumed) and `x:unpause` resumes a paused one (`customer.subscription.resumed`, a new period
 * billed from now). A subscription that cannot be paused (ended, incomplete, already paused) or
 * resumed (not paused) is left as it is and the step says so.
 *
 * @example
 * await mirrorActions['x:pause']?.(ctx, { kind: 'x:pause', sub: -1 })
 */
export const mirrorActions: Readonly<Record<string, FlowAction>> = {
  async 'x:pause'(ctx, step) {
    const id = subscriptionAt(ctx, (step as { sub?: unknown }).sub)
    if (id === undefined) return 'no subscription'
    const paused = await ctx.api('POST', `/v1/subscriptions/${id}/pause`)
    return paused.status === 200 ? `pause ${id}` : `pause ${id} refused (${paused.status})`
  },
  async 'x:unpause'(ctx, step) {
    const id = subscriptionAt(ctx, (step as { sub?: unknown }).sub)
    if (id === undefined) return 'no subscription'
    const resumed = await ctx.api('POST', `/v1/subscriptions/${id}/resume`)
    return resumed.status === 200 ? `resume paused ${id}` : `resume ${id} refused (${resumed.status})`
  },
}
