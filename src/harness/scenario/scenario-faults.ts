import { type FaultKind, faultLog } from '#faults/index.js'
import type { TraceEntry } from '#kernel/index.js'
import type { Simulator } from '#simulator/index.js'
import type { FaultDecision, Verdict } from './run-result.js'

/** Switches for one receiver of the run. */
export interface ReceiverControl {
  down(status?: number): void
  up(): void
  /** Re-POSTs the oldest signed delivery it captured, once its signature is stale; false when none. */
  replay(): boolean
}

/** Parameters a saved fault decision keeps: the ones a schedule entry accepts. */
const ENTRY_PARAMS = ['receiver', 'reason', 'count', 'delay', 'status', 'operation'] as const

/**
 * Wires the kinds the fault engine hands outside the service (receivers down and up; replayed
 * deliveries) to the run's receivers. A slow receiver (`receiver_slow`) is a slow network on the
 * service's own delivery attempts, scheduled or drawn, as in property programs. Every other kind the engine applies itself: forced 429s,
 * lock timeouts, 409s and 5xx in its admission gate, indeterminate answers and slow processing in
 * the domain hooks, early session expiry at once, and duplicated, reordered or delayed deliveries
 * through the delivery area's fault hook.
 *
 * @example
 * wireReceiverFaults(sim, controls)
 */
export function wireReceiverFaults(sim: Simulator, receivers: ReadonlyMap<string, ReceiverControl>): void {
  const pick = (name: string | undefined): ReceiverControl[] => {
    if (name === undefined) return [...receivers.values()]
    const r = receivers.get(name)
    return r === undefined ? [] : [r]
  }
  const each = (fn: (r: ReceiverControl, entry: { status?: number }) => void) => (entry: any) => {
    const rs = pick(entry.receiver)
    for (const r of rs) fn(r, entry)
    return rs.length > 0
  }
  sim.faults.on(
    'receiver_down',
    each((r, e) => r.down(e.status)),
  )
  sim.faults.on(
    'receiver_up',
    each((r) => r.up()),
  )
  sim.faults.on('replay_delivery', (entry) => pick(entry.receiver).some((r) => r.replay()))
}

/**
 * The fault decisions among `entries` (trace `fault` entries), as the report shows them: the
 * schedule entry parameters are kept so a fuzz failure can be saved as an explicit schedule.
 *
 * @example
 * const decisions = faultDecisions(sim.trace.entries().slice(from))
 */
export function faultDecisions(entries: readonly TraceEntry[]): FaultDecision[] {
  return faultLog(entries).map((f) => {
    const kind = f.label.split(':')[0] as FaultKind
    const params: Record<string, unknown> = {}
    for (const k of ENTRY_PARAMS) if (f.detail[k] !== undefined && f.detail[k] !== null) params[k] = f.detail[k]
    const applied = f.detail.applied !== false
    const detail = Object.entries(f.detail)
      .filter(([k]) => k !== 'applied')
      .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') || '-' : String(v)}`)
      .join(' ')
    return {
      step: f.step,
      at: f.at,
      fault: kind,
      source: f.source === 'rate' ? 'policy' : f.source === 'inject' ? 'inject' : 'schedule',
      applied,
      note: `${f.label}${detail ? ` ${detail}` : ''}${applied ? '' : ' (nothing to act on)'}`,
      params,
    }
  })
}

/**
 * One verdict on the configured faults: every kind of the explicit schedule fired (and acted on
 * something) at least once; kinds with only a policy rate that never fired are listed, not failed,
 * since a rate may rightly draw nothing for one seed.
 *
 * @example
 * verdicts.push(faultsFiredVerdict(sim, decisions))
 */
export function faultsFiredVerdict(sim: Simulator, decisions: readonly FaultDecision[]): Verdict | undefined {
  const configured = sim.faults.configured()
  if (configured.length === 0) return undefined
  const scheduled = new Set(sim.faults.policy.schedule.map((e) => e.fault))
  const fired = new Set(decisions.filter((d) => d.applied).map((d) => d.fault))
  const missing = [...scheduled].filter((k) => !fired.has(k)).sort()
  const quiet = configured.filter((k) => !scheduled.has(k) && !fired.has(k))
  const note = quiet.length > 0 ? `; configured by rate but never fired: ${quiet.join(', ')}` : ''
  return missing.length === 0
    ? { name: 'faults fired', ok: true, message: `every scheduled fault kind fired (${[...fired].sort().join(', ')})${note}` }
    : {
        name: 'faults fired',
        ok: false,
        message: `scheduled but never fired: ${missing.join(', ')}${note}`,
        witness: { schedule: sim.faults.policy.schedule, fired: sim.faults.fired() },
      }
}
