import fc from 'fast-check'
import type { FaultKind } from '#faults/index.js'
import type { FlowAction } from './flows/flow-actions.js'
import { type FlowAdversity, type FlowProgram, type FlowWorkload, flowFaultKinds, flowProgram } from './flows/flow-program.js'
import { type FlowSubject, runFlow } from './flows/flow-run.js'
import type { SimulatorChoice } from './run/simulator-choice.js'
import { HarnessInputError } from './validate-input.js'

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
}

const FAULTS = ['in_order', 'out_of_order', 'duplicate', 'retry', 'replayed', 'forged'] as const
const DEPLOYS = ['none', 'redeployed', 'in_roll'] as const

/** The fault kinds that make a delivery arrive each way. */
const KINDS_FOR: Readonly<Record<string, readonly FaultKind[]>> = {
  out_of_order: ['reorder_delivery', 'delay_delivery'],
  duplicate: ['duplicate_delivery'],
  retry: ['receiver_down', 'receiver_slow'],
  replayed: ['replay_delivery'],
}

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

/** The least reached (type, fault, deploy) triple, or (every third run) a state the type was never delivered in. */
function target(counts: ReadonlyMap<string, number>, run: number, focus: readonly string[]): Target | undefined {
  const types = new Set<string>()
  const states = new Map<string, Set<string>>()
  const triples = new Map<string, number>()
  const pairs = new Set<string>()
  for (const [key, n] of counts) {
    const [type = '', state = '', fault = '', deploy = ''] = key.split('|')
    types.add(type)
    const kind = type.slice(0, type.lastIndexOf('.'))
    states.set(kind, (states.get(kind) ?? new Set()).add(state))
    pairs.add(`${type}|${state}`)
    const t = `${type}|${fault}|${deploy}`
    triples.set(t, (triples.get(t) ?? 0) + n)
  }
  const all = [...types].sort()
  const focused = all.filter((t) => focus.some((f) => t.startsWith(f)))
  const sorted = focused.length > 0 ? focused : all
  if (sorted.length === 0) return undefined
  if (run % 3 === 1) {
    const missing = sorted.filter((t) =>
      [...(states.get(t.slice(0, t.lastIndexOf('.'))) ?? [])].some((s) => !pairs.has(`${t}|${s}`)),
    )
    const type = missing[run % Math.max(1, missing.length)]
    if (type !== undefined) return { type, fault: 'out_of_order', deploy: 'none', stale: true }
  }
  let best: Target | undefined
  let fewest = Number.POSITIVE_INFINITY
  const offset = run % (sorted.length * FAULTS.length * DEPLOYS.length)
  const candidates = sorted.flatMap((type) =>
    FAULTS.flatMap((fault) => DEPLOYS.map((deploy) => ({ type, fault, deploy, stale: false }))),
  )
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[(i + offset) % candidates.length] as Target
    const n = triples.get(`${c.type}|${c.fault}|${c.deploy}`) ?? 0
    if (n < fewest) {
      fewest = n
      best = c
    }
  }
  return best
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
 * Runs many generated flows of a property against a subject and counts the (event type, the
 * provider's object state on arrival, how the delivery arrived, where the app stood) combinations
 * they reached (`FlowReport.coverage`). Steered (the default), each run after the first few aims
 * its faults and adversity steps at the combinations least reached so far, so rare interleavings
 * (a failure notice arriving after the invoice was paid, a duplicate arriving after a redeploy)
 * are reached in far fewer runs than plain generation takes.
 *
 * @example
 * const report = await runFlowCampaign(() => dunningSubject(referenceDunningClient, 'campaign'), { workload: dunningWorkload(), runs: 500 })
 * report.coverage['invoice.payment_failed|paid|retry|none'] // runs that reached it
 */
export async function runFlowCampaign(
  subject: () => FlowSubject,
  options: FlowCampaignOptions = {},
): Promise<FlowCampaignReport> {
  const runs = options.runs ?? 500
  if (!Number.isInteger(runs) || runs < 1)
    throw new HarnessInputError("runFlowCampaign: option 'runs' must be a positive integer")
  const { runs: _r, seed = 1, workload = {}, steer = true, onRun, focus, ...choice } = options
  const aims = focus ?? workload.faultAims ?? []
  const counts = new Map<string, number>()
  const firstReached: Record<string, number> = {}
  let violations = 0
  let saturatedAt = 0
  const plain = flowProgram(workload)
  for (let i = 0; i < runs; i++) {
    // Every other run is the property's own generation: steering narrows, plain runs find new types.
    const t = steer && i >= 10 && i % 2 === 1 ? target(counts, i, aims) : undefined
    const arbitrary = t === undefined ? plain : flowProgram(steered(workload, t))
    const [program] = fc.sample(arbitrary, { seed: seed * 100_003 + i, numRuns: 1 }) as [FlowProgram]
    const report = await runFlow(program, subject(), choice)
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
  return { runs, coverage, firstReached, saturatedAt, violations }
}
