import { formatDuration } from '#kernel/index.js'
import type { StepSpec } from '../scenario/schema.js'
import { fill } from '../scenario/template.js'
import { stepKindOf } from './step-kinds.js'

/**
 * The label of a step in timelines and reports: its own `label`, or one said from its action
 * (templates filled with the run's variables as they are when the step starts).
 *
 * @example
 * labelOf({ request: { method: 'GET', path: '/v1/account' } }, {}) // 'GET /v1/account'
 */
export function labelOf(step: StepSpec, vars: Readonly<Record<string, unknown>>): string {
  if (step.label !== undefined) return step.label
  const kind = stepKindOf(step)
  if (step.request) {
    const r = step.request
    return `${r.method ?? 'GET'} ${String(fill(r.path, vars))}${r.times ? ` x${r.times}` : ''}`
  }
  if (step.parallel) return `parallel x${step.parallel.length}`
  if (step.advance !== undefined) return `advance ${formatDuration(step.advance)}`
  if (step.client) return `client ${step.client.action}`
  if (step.receiver) return `receiver ${step.receiver.name} ${step.receiver.state}`
  if (step.admin) return `admin ${step.admin.call}`
  return kind
}
