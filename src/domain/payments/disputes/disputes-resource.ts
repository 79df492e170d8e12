import { checkMetadata } from '../../engine/checks.js'
import type { ResourceDeclaration } from '../../engine/declaration.js'
import type { Json } from '../../engine/list.js'
import type { ResourcePorts } from '../../resource-ports.js'
import { tableError } from '../../service-error.js'
import { type DisputeOutcome, OPEN_STATUSES } from './disputes.js'

/** A dispute that can still be answered, else the refusal naming what was tried. */
function requireOpen(d: Json, past: string): void {
  if (!OPEN_STATUSES.has(String(d.status))) throw tableError('dispute_not_open', { id: d.id, status: String(d.status), past })
}

/**
 * The outcome the provider's test mode gives submitted evidence: `winning_evidence` in
 * `uncategorized_text` wins the dispute, `losing_evidence` loses it; other evidence stays under
 * review.
 *
 * @example
 * testOutcome({ uncategorized_text: 'winning_evidence' }) // 'won'
 */
export function testOutcome(evidence: Readonly<Record<string, unknown>>): DisputeOutcome | undefined {
  const text = typeof evidence.uncategorized_text === 'string' ? evidence.uncategorized_text : ''
  if (text.includes('winning_evidence')) return 'won'
  if (text.includes('losing_evidence')) return 'lost'
  return undefined
}

/**
 * Disputes: opened by the provider's dispute test cards (`ports.disputes`), never by a request;
 * retrieve and list (filters `charge`, `payment_intent`) are the engine's. `disputes.update` adds
 * evidence and metadata (`charge.dispute.updated`); with `submit` (the default) the dispute goes
 * under review and the test-mode evidence rules decide it a moment later on the clock
 * (`testOutcome`, after `await sim.settle()`). `disputes.close`
 * accepts the dispute: lost, with `charge.dispute.closed`.
 *
 * @example
 * await stripe.disputes.update('dp_1', { evidence: { uncategorized_text: 'winning_evidence' } }) // under_review, then won
 */
export const disputes: ResourceDeclaration<ResourcePorts> = {
  type: 'Dispute',
  object: 'dispute',
  idPrefix: 'dp',
  eventPrefix: 'charge.dispute',
  only: ['retrieve', 'list'],
  behaviours: {
    'disputes.update'(call, _next, { engine, ports }) {
      const r = engine.resource('dispute')
      const d = r.require(call.scope, call.path.id ?? '')
      requireOpen(d, 'updated')
      const p = call.params
      checkMetadata(p.metadata)
      const evidence = { ...(d.evidence as Record<string, unknown>), ...((p.evidence ?? {}) as Record<string, unknown>) }
      const submit = p.submit !== false
      const details = d.evidence_details as Record<string, unknown>
      const inquiry = d.status === 'warning_needs_response'
      const updated = r.update(call.scope, d.id, { metadata: p.metadata }, call.origin, {
        evidence,
        evidence_details: {
          ...details,
          has_evidence: Object.values(evidence).some((v) => v !== null && v !== ''),
          submission_count: (details.submission_count as number) + (submit ? 1 : 0),
        },
        ...(submit ? { status: inquiry ? 'warning_under_review' : 'under_review' } : {}),
      })
      const outcome = submit ? testOutcome(evidence) : undefined
      if (outcome !== undefined) ports.disputes.decideLater(call.scope, d.id, outcome)
      return updated
    },
    'disputes.close'(call, _next, { engine, ports }) {
      const d = engine.resource('dispute').require(call.scope, call.path.id ?? '')
      requireOpen(d, 'closed')
      return ports.disputes.close(call.scope, d.id, 'lost', call.origin)
    },
  },
}
