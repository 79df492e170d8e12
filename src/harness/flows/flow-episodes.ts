import fc from 'fast-check'
import type { FaultEntry } from '#faults/index.js'
import type { FlowStep } from './flow-program.js'

/**
 * A step of an episode with the faults it brings, armed before it beside any drawn for it: a
 * delivery fault aimed at an event the step causes (the first of two updates made in the same
 * second delivered after the second, a seat change delivered twice). What a rule depends on is
 * then reached by construction, not by the chance that a drawn fault lands on the right step.
 */
export interface AimedStep {
  readonly step: FlowStep
  readonly faults: readonly Omit<FaultEntry, 'step'>[]
}

/** What an episode is made of: steps, some with faults aimed at what they cause. */
export type EpisodeStep = FlowStep | AimedStep

/**
 * A step of a program as generation draws it: the step, the faults drawn before it, and the faults
 * its episode aimed (kept first when a program has more than `maxFaults`).
 */
export interface Slot {
  readonly step: FlowStep
  readonly faults: readonly FaultEntry[]
  readonly aimed: readonly FaultEntry[]
}

const EPISODE_FAULTED_STEPS = 4

/**
 * The weight of a single step beside `episodes` episodes of weight 1 each, for their share.
 *
 * @example
 * singleWeight(1, 0.1) // 9: one draw in ten is the episode
 */
export function singleWeight(episodes: number, share = 1 / 3): number {
  const bounded = Math.min(0.99, Math.max(0.01, Number.isFinite(share) ? share : 1 / 3))
  return Math.max(1, Math.round((episodes * (1 - bounded)) / bounded))
}

function isAimed(s: EpisodeStep): s is AimedStep {
  return !('kind' in s) && 'step' in s && 'faults' in s
}

/**
 * An episode's steps, each with faults drawn as a single step's are (on its first four steps),
 * and the faults an aimed step brings.
 *
 * @example
 * const slots = episodeSlots(fc.constant([{ kind: 'redeploy' }]), fc.constant([]))
 */
export function episodeSlots(
  episode: fc.Arbitrary<readonly EpisodeStep[]>,
  before: fc.Arbitrary<FaultEntry[]>,
): fc.Arbitrary<Slot[]> {
  return fc
    .tuple(episode, fc.array(before, { minLength: EPISODE_FAULTED_STEPS, maxLength: EPISODE_FAULTED_STEPS }))
    .map(([steps, faults]) =>
      steps.map((s, i) => {
        const drawn = faults[i] ?? []
        if (!isAimed(s)) return { step: s, faults: drawn, aimed: [] }
        return { step: s.step, faults: drawn, aimed: s.faults.map((f) => ({ step: 1, ...f }) as FaultEntry) }
      }),
    )
}

/**
 * The program's fault schedule from its slots: at most `max` entries, the aimed ones kept first
 * (an episode's point), then the drawn ones in program order; each entry names its slot's 1-based
 * step, an aimed fault armed before the drawn ones of its step. Without aimed faults: the first
 * `max` drawn, as always.
 *
 * @example
 * scheduleOf(slots, 4) // [{ step: 2, fault: 'reorder_delivery', operation: 'customer.subscription.created' }, ...]
 */
export function scheduleOf(slots: readonly Slot[], max: number): FaultEntry[] {
  const aimed = slots.flatMap((s, i) => s.aimed.map((f) => ({ ...f, step: i + 1 })))
  const kept = aimed.slice(0, max)
  const drawn = slots.flatMap((s, i) => s.faults.map((f) => ({ ...f, step: i + 1 }))).slice(0, max - kept.length)
  if (kept.length === 0) return drawn
  // Stable by step: an aimed fault before the drawn ones of its step.
  return [...kept, ...drawn].sort((a, b) => a.step - b.step)
}
