import { eventObjectKind } from './event-object.js'
import type { CoverageDonor, CoverageTarget } from './flow-graft.js'
import type { FlowProgram } from './flow-program.js'
import { impossibleCombination } from './impossible-combinations.js'

const FAULTS = ['in_order', 'out_of_order', 'duplicate', 'retry', 'replayed', 'forged'] as const
const DEPLOYS = ['none', 'redeployed', 'in_roll'] as const

/** The ways of arriving a built program makes again for each later standing of the app (`withEncores`). */
const ENCORED: ReadonlySet<string> = new Set(['duplicate', 'replayed', 'retry', 'forged'])

/** Programs kept per event type that met it in their first step. */
const FIRSTS_KEPT = 8

/** A `type|state|fault|deploy` key as its parts. */
export function coverageTarget(key: string): CoverageTarget {
  const [type = '', state = '', fault = '', deploy = ''] = key.split('|')
  return { type, state, fault, deploy }
}

/**
 * The kind of object an event type is about, as the attacker tells them apart: a forged delivery's
 * type follows from the kind and the state of the object it lies about (see `forgedType`); every
 * other kind is forged alike.
 */
function objectKind(type: string): string {
  const kind = eventObjectKind(type)
  return kind === 'checkout.session' || kind === 'subscription' || kind === 'invoice' ? kind : 'other'
}

/** How close a donor's combination is to the target: its state first, then its way of arriving. */
function closeness(donor: CoverageTarget, target: CoverageTarget): number {
  // The attacker replays the run's first delivery only: a replay's donor must have had it first.
  const replay = target.fault === 'replayed' && donor.fault === 'replayed' ? 8 : 0
  return (
    replay +
    (donor.state === target.state ? 4 : 0) +
    (donor.fault === target.fault ? 2 : 0) +
    (donor.deploy === target.deploy ? 1 : 0)
  )
}

/**
 * What a campaign knows of the combinations: which it reached and with which program first (its
 * donors), which it aims at (a known set, or every way of arriving for each event type and state
 * reached that is not impossible), and how often it has aimed at each. Each steered run aims at
 * the missing combination aimed at least, with the closest donor that met its event type.
 *
 * @example
 * const steering = new CoverageSteering(knownFlowCombinations.checkDunning)
 * steering.learn(program, report.coverageSteps)
 * const aim = steering.next(run) // { target, donor } or undefined
 */
export class CoverageSteering {
  private readonly donors = new Map<string, CoverageDonor>()
  private readonly attempts = new Map<string, number>()
  // Per event type, programs whose first delivery (what the attacker replays) was likely of it.
  private readonly firsts = new Map<string, CoverageDonor[]>()

  constructor(
    private readonly known?: readonly string[],
    private readonly focus: readonly string[] = [],
  ) {}

  /**
   * Notes the combinations a run reached (`FlowReport.coverageSteps`): the first program to reach
   * one is its donor. `first`: the type of the run's first delivery (`FlowReport.firstDelivery`),
   * what the attacker's replay re-sends; without it, every type met in the earliest step.
   */
  learn(program: FlowProgram, steps: Readonly<Record<string, number>>, first?: string): void {
    const earliest = Math.min(...Object.values(steps))
    const types =
      first === undefined
        ? new Set(
            Object.keys(steps)
              .filter((k) => steps[k] === earliest)
              .map((k) => k.split('|')[0] ?? ''),
          )
        : [first]
    for (const type of types) {
      const list = this.firsts.get(type) ?? []
      if (list.length < FIRSTS_KEPT) this.firsts.set(type, [...list, { program, step: earliest, first: true }])
    }
    for (const [key, step] of Object.entries(steps)) if (!this.donors.has(key)) this.donors.set(key, { program, step })
  }

  /** The combinations aimed at and not reached yet, sorted. */
  missing(): string[] {
    const aims = this.known ?? this.candidates()
    return aims.filter((k) => !this.donors.has(k)).sort()
  }

  /** Every way of arriving, for each (event type, state) reached, that is not impossible. */
  private candidates(): string[] {
    const pairs = new Set([...this.donors.keys()].map((k) => k.split('|').slice(0, 2).join('|')))
    return [...pairs].flatMap((p) =>
      FAULTS.flatMap((f) => DEPLOYS.map((d) => `${p}|${f}|${d}`)).filter((k) => impossibleCombination(k) === undefined),
    )
  }

  /**
   * The next target (the missing combination aimed at least; ties in turn by `run`) and the donor
   * to graft it on: the reached combination of the same event type closest to it, and how many
   * times it was aimed at before. Undefined when nothing is missing; a target whose type was never
   * met comes without a donor.
   */
  next(run: number): { readonly target: CoverageTarget; readonly donor?: CoverageDonor; readonly attempt: number } | undefined {
    const missing = this.missing()
    if (missing.length === 0) return undefined
    let fewest = Number.POSITIVE_INFINITY
    let key = ''
    for (let i = 0; i < missing.length; i++) {
      const k = missing[(i + run) % missing.length] as string
      // Each round aims at every missing combination once, the types the rules read first.
      const n = 2 * (this.attempts.get(k) ?? 0) + (this.focus.some((f) => k.startsWith(f)) ? 0 : 1)
      if (n < fewest) {
        fewest = n
        key = k
      }
    }
    key = this.earliestStanding(key, missing)
    const tried = this.attempts.get(key) ?? 0
    this.attempts.set(key, tried + 1)
    const target = coverageTarget(key)
    const donor = this.donorFor(target, tried)
    return donor === undefined ? { target, attempt: tried } : { target, donor, attempt: tried }
  }

  /**
   * For a way of arriving that a built program makes again after a redeploy and inside a roll
   * (`withEncores`), the same combination where the app stood earlier when that one is missing and
   * aimed at no more often: one run then reaches it for every later standing too, where aiming at
   * the latest standing first spends a run on each.
   */
  private earliestStanding(key: string, missing: readonly string[]): string {
    const { type, state, fault, deploy } = coverageTarget(key)
    if (!ENCORED.has(fault)) return key
    const tried = this.attempts.get(key) ?? 0
    for (const earlier of DEPLOYS.slice(0, DEPLOYS.indexOf(deploy as (typeof DEPLOYS)[number]))) {
      const k = `${type}|${state}|${fault}|${earlier}`
      if (missing.includes(k) && (this.attempts.get(k) ?? 0) <= tried) return k
    }
    return key
  }

  /** The closest donors of the target's type, the `nth` attempt taking the next of the closest ones in turn. */
  private donorFor(target: CoverageTarget, nth: number): CoverageDonor | undefined {
    const firsts = this.firsts.get(target.type) ?? []
    // A replay's donor met the type first (the attacker replays the run's first delivery).
    if (target.fault === 'replayed' && firsts.length > 0) return firsts[nth % firsts.length]
    if (target.fault === 'forged') return this.forgeryDonor(target, nth)
    const ranked = [...this.donors]
      .filter(([k]) => k.startsWith(`${target.type}|`))
      .map(([k, donor]) => ({ donor, score: closeness(coverageTarget(k), target) }))
      .sort((a, b) => b.score - a.score)
    const best = ranked[0]?.score
    const closest = ranked.filter((r) => r.score === best)
    return closest[nth % Math.max(1, closest.length)]?.donor
  }

  /**
   * A forgery's donor: a program that met an object of the kind the forged type is about in the
   * target's state, with the type it met it by as the forgery's aim (the attacker lies about the
   * object of the latest event of that type, claiming the opposite of its state).
   */
  private forgeryDonor(target: CoverageTarget, nth: number): CoverageDonor | undefined {
    const kind = objectKind(target.type)
    const ranked = [...this.donors]
      .map(([k, donor]) => ({ key: coverageTarget(k), donor }))
      .filter(({ key }) => objectKind(key.type) === kind && key.fault !== 'forged')
      .map(({ key, donor }) => ({
        donor: { ...donor, aim: key.type },
        score: (key.state === target.state ? 4 : 0) + (key.fault === 'in_order' ? 1 : 0),
      }))
      .sort((a, b) => b.score - a.score)
    const best = ranked[0]?.score
    const closest = ranked.filter((r) => r.score === best)
    return closest[nth % Math.max(1, closest.length)]?.donor
  }
}
