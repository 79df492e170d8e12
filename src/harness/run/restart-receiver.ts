import type { RunState } from './run-state.js'
import { buildReceiver } from './wire-subjects.js'

/**
 * Restarts the run's webhook receiver as a deploy does: a new instance from its factory, reading
 * its environment (the signing secrets as they are now) at construction, with the run's durable
 * store; the old instance's memory is gone. The receiver stays mounted at its URL (a deploy keeps
 * the endpoint), and work the old instance already started finishes (a graceful shutdown drains
 * it). Traced as `harness.restart`. Does nothing in a run without a receiver.
 *
 * @example
 * restartReceiver(state, 'deploy')
 */
export function restartReceiver(state: RunState, reason: 'deploy' | 'secret_rolled'): void {
  if (state.receiver === undefined || state.destination === undefined) return
  state.restarts += 1
  state.sim.service.kernel.trace.append('harness.restart', { subject: 'receiver', reason, restart: state.restarts })
  state.receiver = buildReceiver(state)
}
