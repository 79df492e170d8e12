import fc from 'fast-check'
import type { FaultKind } from '#faults/index.js'
import { CoverageSteering } from './flows/coverage-steering.js'
import type { FlowAction } from './flows/flow-actions.js'
import { directedProgram } from './flows/flow-directed.js'
import type { EpisodeStep } from './flows/flow-episodes.js'
import { graftedProgram } from './flows/flow-graft.js'
import {
  type FlowAdversity,
  type FlowProgram,
  type FlowStep,
  type FlowWorkload,
  flowFaultKinds,
  flowProgram,
  flowStep,
} from './flows/flow-program.js'
import { type FlowSubject, runFlowProgram } from './flows/flow-run.js'
import { fulfilmentDirectedProgram } from './flows/fulfilment-directed.js'
import type { SimulatorChoice } from './run/simulator-choice.js'
import { HarnessInputError, shownValue } from './validate-input.js'

/** Settings of a flow campaign. */
export interface FlowCampaignOptions extends SimulatorChoice {
  /** Runs (default 500). */
  readonly runs?: number
  /** Seed of the generation (default 1). */
  readonly seed?: number
  /** The property's workload (its steps, episodes, aims), as its check uses it. */
  readonly workload?: FlowWorkload
  /** Actions of the workload's extra step kinds. */
  readonly actions?: Readonly<Record<string, FlowAction>>
  /**
   * Steer each run towards the combinations least reached so far (default true): its delivery
   * faults aimed at one event type with the fault kinds that produce the missing way of arriving,
   * its adversity steps the missing redeploy or forgery. Without: plain generation, as a check runs.
   */
  readonly steer?: boolean
  /**
   * Event types (or prefixes) the steering aims at: the ones the property's rules read (default
   * the workload's `faultAims`, else every type reached).
   */
  readonly focus?: readonly string[]
  /**
   * The combinations the flows are known to produce (`knownFlowCombinations[property]`): the steering
   * aims at the ones not reached yet and the report lists them as `missing`. Without: every way of
   * arriving, for each event type and state reached, that is not impossible (`impossibleCombination`).
   */
  readonly known?: readonly string[]
  /** Called after each run with its index and what it reached (a progress line, a chart). */
  readonly onRun?: (run: number, coverage: readonly string[], program: FlowProgram) => void
}

/** What a flow campaign reached. */
export interface FlowCampaignReport {
  readonly runs: number
  /** Runs that reached each (event type, object state, fault, deploy) combination. */
  readonly coverage: Readonly<Record<string, number>>
  /** The first run (1-based) that reached each combination. */
  readonly firstReached: Readonly<Record<string, number>>
  /** The run that reached the last combination first reached (0 when none was). */
  readonly saturatedAt: number
  /** Violations over all runs (a correct app has none). */
  readonly violations: number
  /** With `known`: the known combinations no run reached, sorted. */
  readonly missing?: readonly string[]
}

/** The fault kinds that make a delivery arrive each way. */
const KINDS_FOR: Readonly<Record<string, readonly FaultKind[]>> = {
  out_of_order: ['reorder_delivery', 'delay_delivery'],
  duplicate: ['duplicate_delivery'],
  retry: ['receiver_down', 'receiver_slow'],
  replayed: ['replay_delivery'],
}

/** Plain runs a steered campaign starts with: the programs its first grafts take. */
const WARM_UP = 10

/** After the warm-up, one run in this many is plain generation (new types and states to graft on). */
const PLAIN_EVERY = 10

const ALL_ADVERSITY: readonly FlowAdversity[] = ['redeploy', 'roll_secret', 'forge', 'redeliver']

/** The adversity steps that put the app where each way of arriving needs it, the target's drawn most. */
function adversityFor(fault: string, deploy: string, stale: boolean): FlowWorkload['adversity'] {
  const kinds: FlowAdversity[] = []
  if (fault === 'forged') kinds.push('forge', 'forge')
  if (deploy === 'redeployed') kinds.push('redeploy', 'redeploy')
  if (deploy === 'in_roll') kinds.push('roll_secret', 'roll_secret')
  if (stale || fault === 'duplicate') kinds.push('redeliver', 'redeliver')
  return kinds.length === 0 ? undefined : { kinds: [...kinds, ...ALL_ADVERSITY], weight: 2 }
}

interface Target {
  readonly type: string
  readonly fault: string
  readonly deploy: string
  readonly stale: boolean
}

/** The workload of one steered run: the property's, aimed at the target. */
function steered(base: FlowWorkload, t: Target): FlowWorkload {
  const adversity = adversityFor(t.fault, t.deploy, t.stale)
  const kinds = base.faultKinds ?? flowFaultKinds
  const aimed = KINDS_FOR[t.fault] ?? []
  // The target's fault kinds and its event type drawn as often as all the others together: the
  // rest of the run stays as varied as the property's own generation.
  return {
    ...base,
    faultAims: [...Array<string>(3).fill(t.type), ...(base.faultAims ?? [])],
    faultKinds: [...aimed.flatMap((k) => Array<FaultKind>(Math.ceil(kinds.length / aimed.length)).fill(k)), ...kinds],
    maxFaults: Math.max(4, base.maxFaults ?? 4),
    // Every event type delivered: a target's type may be one the rules do not read.
    everyEvent: base.everyEvent ?? true,
    ...(adversity === undefined ? {} : { adversity }),
  }
}

/**
 * The step kinds a workload's generation draws (samples of its single step, its first step and its
 * episodes): what a program built for a combination may use, so it makes only what the property's
 * flows can make.
 *
 * @example
 * drawnKinds(dunningWorkload())('change_quantity') // false: dunning flows never change seats
 */
export function drawnKinds(workload: FlowWorkload): (kind: string) => boolean {
  const seen = (a: fc.Arbitrary<unknown>, numRuns: number) => fc.sample(a, { seed: 1, numRuns })
  // Enough single steps that the rarest kind (an adversity kind, a sixtieth of the draws) shows.
  const kinds = new Set<string>(seen(flowStep(workload), 2_000).map((step) => (step as FlowStep).kind))
  if (workload.firstStep !== undefined) for (const step of seen(workload.firstStep, 20)) kinds.add((step as FlowStep).kind)
  for (const e of workload.episodes ?? [])
    for (const steps of seen(e, 20))
      for (const x of steps as readonly EpisodeStep[]) kinds.add('kind' in x ? x.kind : x.step.kind)
  return (kind) => kinds.has(kind)
}

/** How a campaign makes programs: the property's own generation, its workload, the step kinds it draws. */
interface Generation {
  readonly plain: fc.Arbitrary<FlowProgram>
  readonly workload: FlowWorkload
  readonly drawn: (kind: string) => boolean
}

/** The program of run `i`: plain generation, or one aimed at the least-aimed missing combination. */
function programOf(
  i: number,
  seed: number,
  steering: CoverageSteering | undefined,
  { plain, workload, drawn }: Generation,
): FlowProgram {
  const sample = (a: fc.Arbitrary<FlowProgram>) => (fc.sample(a, { seed: seed * 100_003 + i, numRuns: 1 }) as [FlowProgram])[0]
  // The first runs and every tenth one after are the property's own generation: they find the
  // types and states the grafts start from.
  if (steering === undefined || i < WARM_UP || i % PLAIN_EVERY === 0) return sample(plain)
  const aim = steering.next(i)
  if (aim === undefined) return sample(plain)
  // A program built for the combination first, then a graft on one that met its type, in turn.
  const built =
    aim.attempt % 2 === 0 ? (directedProgram(aim.target, drawn) ?? fulfilmentDirectedProgram(aim.target, drawn)) : undefined
  if (built !== undefined) return sample(built)
  if (aim.donor !== undefined) return sample(graftedProgram(aim.donor, aim.target, drawn))
  // A type never met yet: the property's generation with its faults and adversity aimed at it.
  return sample(flowProgram(steered(workload, { ...aim.target, stale: aim.target.fault === 'out_of_order' })))
}

/**
 * Runs many generated flows of a property against a subject and counts the (event type, the
 * provider's object state on arrival, how the delivery arrived, where the app stood) combinations
 * they reached (`FlowReport.coverage`). Steered (the default), most runs after the first few aim at
 * one combination not reached yet (of `known` when given): a program that met its event type
 * (in its state when one did) is taken again with what the combination adds grafted on at that
 * step (a reorder, duplicate, time-out or replay aimed at the type, a forged delivery, a redeploy
 * after it, a secret roll before it), so rare interleavings (a failure notice arriving after the
 * invoice was paid, a duplicate arriving after a redeploy) come in far fewer runs than plain
 * generation takes. Deterministic: the same seed, the same programs.
 *
 * @example
 * const report = await runFlowCampaign(() => dunningSubject(referenceDunningClient, 'campaign'), { workload: dunningWorkload(), runs: 500 })
 * report.coverage['invoice.payment_failed|paid|retry|none'] // runs that reached it
 */
export async function runFlowCampaign(
  subject: () => FlowSubject,
  options: FlowCampaignOptions = {},
): Promise<FlowCampaignReport> {
  if (typeof subject !== 'function')
    throw new HarnessInputError(
      `runFlowCampaign: expected a subject maker () => FlowSubject (e.g. () => mirrorSubject(app, {}, 'campaign')), got ${shownValue(subject)}`,
    )
  const runs = options.runs ?? 500
  if (!Number.isInteger(runs) || runs < 1)
    throw new HarnessInputError("runFlowCampaign: option 'runs' must be a positive integer")
  const { runs: _r, seed = 1, workload = {}, steer = true, onRun, focus, known, ...choice } = options
  const counts = new Map<string, number>()
  const firstReached: Record<string, number> = {}
  let violations = 0
  let saturatedAt = 0
  const plain = flowProgram(workload)
  const steering = steer ? new CoverageSteering(known, focus) : undefined
  const generation: Generation = { plain, workload, drawn: steer ? drawnKinds(workload) : () => true }
  for (let i = 0; i < runs; i++) {
    const program = programOf(i, seed, steering, generation)
    const report = await runFlowProgram(program, subject(), choice)
    steering?.learn(program, report.coverageSteps, report.firstDelivery)
    violations += report.violations.length
    for (const key of report.coverage) {
      if (!counts.has(key)) {
        firstReached[key] = i + 1
        saturatedAt = i + 1
      }
      counts.set(key, (counts.get(key) ?? 0) + 1)
    }
    onRun?.(i + 1, report.coverage, program)
  }
  const coverage = Object.fromEntries([...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  const missing = known === undefined ? undefined : known.filter((k) => !counts.has(k)).sort()
  return { runs, coverage, firstReached, saturatedAt, violations, ...(missing === undefined ? {} : { missing }) }
}
