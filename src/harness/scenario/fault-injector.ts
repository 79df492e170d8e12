import type { Simulator } from '../../simulator/create-simulator.js'
import type { FaultEntry, FaultKind, Faults } from './faults-schema.js'
import type { FaultDecision } from './run-result.js'

/** What a fault applier may touch: the public surface of the simulator and the run's receivers. */
export interface FaultTarget {
  readonly sim: Simulator
  /** Ids of meter event sessions the run has opened. */
  readonly sessions: readonly string[]
  /** Receivers mounted by the run, by name. */
  readonly receivers: ReadonlyMap<string, ReceiverControl>
}

/** Switches for one receiver of the run. */
export interface ReceiverControl {
  down(status?: number): void
  up(): void
  slow(ms: number): void
}

/** What applying a fault did: whether this build could apply it, and a note for the report. */
export interface FaultOutcome {
  readonly applied: boolean
  readonly note: string
}

/**
 * Applies one kind of fault. The fault-injection harness registers appliers for the kinds that
 * need hooks inside the service (429s, lock timeouts, delivery faults).
 */
export type FaultApplier = (fault: FaultEntry, target: FaultTarget) => FaultOutcome | Promise<FaultOutcome>

const receiversOf = (fault: FaultEntry, target: FaultTarget): ReceiverControl[] => {
  if (fault.receiver === undefined) return [...target.receivers.values()]
  const r = target.receivers.get(fault.receiver)
  return r === undefined ? [] : [r]
}

/** Asks the simulator's own fault hook (`sim.admin.injectFault`) when one exists. */
const viaAdmin: FaultApplier = async (fault, { sim }) => {
  const inject = (sim.admin as unknown as Record<string, unknown>).injectFault
  if (typeof inject !== 'function')
    return { applied: false, note: 'this build has no service-side hook for it (sim.admin.injectFault)' }
  await (inject as (f: FaultEntry) => unknown).call(sim.admin, fault)
  return { applied: true, note: 'injected through sim.admin.injectFault' }
}

/**
 * Built-in appliers, by kind. Receiver and session faults work through the public surface;
 * the others go through `sim.admin.injectFault` when the service offers it.
 *
 * @example
 * registerFaultApplier('rate_limit', (fault, { sim }) => ({ applied: true, note: 'custom' }))
 */
export const faultAppliers = new Map<FaultKind, FaultApplier>([
  [
    'session_expiry',
    (_fault, { sim, sessions }) => {
      for (const id of sessions) sim.admin.expireSession(id)
      return { applied: true, note: `expired ${sessions.length} session(s)` }
    },
  ],
  [
    'receiver_down',
    (fault, target) => {
      const rs = receiversOf(fault, target)
      for (const r of rs) r.down(fault.status)
      return { applied: rs.length > 0, note: rs.length > 0 ? `${rs.length} receiver(s) down` : 'no such receiver' }
    },
  ],
  [
    'receiver_up',
    (fault, target) => {
      const rs = receiversOf(fault, target)
      for (const r of rs) r.up()
      return { applied: rs.length > 0, note: rs.length > 0 ? `${rs.length} receiver(s) up` : 'no such receiver' }
    },
  ],
  [
    'receiver_slow',
    (fault, target) => {
      const rs = receiversOf(fault, target)
      for (const r of rs) r.slow(fault.delay ?? 0)
      return { applied: rs.length > 0, note: `${rs.length} receiver(s) slow by ${fault.delay ?? 0}ms` }
    },
  ],
  ['rate_limit', viaAdmin],
  ['lock_timeout', viaAdmin],
  ['duplicate_delivery', viaAdmin],
  ['reorder_delivery', viaAdmin],
  ['delay_delivery', viaAdmin],
])

/**
 * Replaces the applier of one fault kind (used by the fault-injection harness).
 *
 * @example
 * registerFaultApplier('lock_timeout', (fault, { sim }) => ({ applied: true, note: 'held a lock' }))
 */
export function registerFaultApplier(kind: FaultKind, applier: FaultApplier): void {
  faultAppliers.set(kind, applier)
}

/**
 * Decides and applies the faults due before each executed step: the explicit schedule first, then
 * one seeded draw per kind with a non-zero policy rate (kinds in sorted order, so decisions only
 * depend on the seed and the step number).
 *
 * @example
 * const injector = createFaultInjector(scenario.faults, (p) => rng.chance(p))
 * const decisions = await injector.before(3, target)
 */
export interface FaultInjector {
  before(step: number, target: FaultTarget): Promise<FaultDecision[]>
}

export function createFaultInjector(faults: Faults, chance: (p: number) => boolean): FaultInjector {
  const rates = Object.entries(faults.policy?.rates ?? {})
    .filter(([, r]) => (r ?? 0) > 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) as [FaultKind, number][]
  return {
    async before(step, target) {
      const due: { entry: FaultEntry; source: 'schedule' | 'policy' }[] = faults.schedule
        .filter((f) => f.step === step)
        .map((entry) => ({ entry, source: 'schedule' as const }))
      for (const [kind, rate] of rates) {
        if (chance(rate)) due.push({ entry: { step, fault: kind, ...faults.policy?.params?.[kind] }, source: 'policy' })
      }
      const decisions: FaultDecision[] = []
      for (const { entry, source } of due) {
        const applier = faultAppliers.get(entry.fault)
        const outcome = applier ? await applier(entry, target) : { applied: false, note: 'no applier for this kind' }
        const { step: _s, fault: _f, ...params } = entry
        decisions.push({ step, at: target.sim.clock.now, fault: entry.fault, source, ...outcome, params })
      }
      return decisions
    },
  }
}
