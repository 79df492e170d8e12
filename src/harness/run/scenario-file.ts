import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FaultsInput } from '#faults/fault-policy.js'
import type { ScenarioInput, StepSpec } from '../scenario/schema.js'
import { scenarioSchema } from '../scenario/schema.js'
import type { Forgery, Program, Step } from './program.js'

const RECEIVER = 'subject'

function toStep(step: Step): StepSpec {
  switch (step.kind) {
    case 'report':
      return {
        client: {
          action: 'report_usage',
          args: { units: step.units, value: step.value, ...(step.customer === undefined ? {} : { customer: step.customer }) },
        },
      }
    case 'burst':
      return { client: { action: 'emit_burst', args: { events: step.events } } }
    case 'resend':
      return { client: { action: 'resend_event', args: { event: step.event, after_ms: step.afterMs } } }
    case 'forge':
      return { client: { action: 'forge_delivery', args: { forgery: step.forgery } } }
    case 'advance':
      return { advance: step.ms }
    case 'emit':
      return { client: { action: 'emit_event', args: { object: step.object } } }
    case 'receiver':
      return { receiver: { name: RECEIVER, state: step.up ? 'up' : 'down' } }
    case 'roll_secret':
      return { client: { action: 'roll_secret' } }
  }
}

function fromStep(spec: StepSpec): Step {
  if (spec.advance !== undefined) return { kind: 'advance', ms: spec.advance }
  if (spec.receiver !== undefined) return { kind: 'receiver', up: spec.receiver.state === 'up' }
  const action = spec.client?.action
  const args = spec.client?.args ?? {}
  if (action === 'report_usage')
    return {
      kind: 'report',
      units: Number(args.units),
      value: Number(args.value),
      ...(args.customer === undefined ? {} : { customer: Number(args.customer) }),
    }
  if (action === 'emit_burst') return { kind: 'burst', events: Number(args.events) }
  if (action === 'resend_event') return { kind: 'resend', event: Number(args.event), afterMs: Number(args.after_ms ?? 0) }
  if (action === 'forge_delivery') return { kind: 'forge', forgery: String(args.forgery) as Forgery }
  if (action === 'emit_event') return { kind: 'emit', object: Number(args.object) }
  if (action === 'roll_secret') return { kind: 'roll_secret' }
  throw new TypeError(`not a harness step: ${JSON.stringify(spec)}`)
}

/**
 * The scenario (format of `src/harness/scenario/schema.ts`) of a harness program: seed, fault
 * rates and schedule, and the steps as workload steps (`client` actions `report_usage`,
 * `emit_event`, `emit_burst`, `resend_event`, `forge_delivery`, `roll_secret`; `advance`; `receiver`). `programOf` reads it back.
 *
 * @example
 * const scenario = scenarioOf(program, { name: 'no-identifiers', faults: { preset: 'realistic' } })
 */
export function scenarioOf(
  program: Program,
  meta: {
    name: string
    subject?: string
    /** Which subject the program ran against; with `subject`, written as `harness` so replay finds it. */
    subjectKind?: 'reporter' | 'webhook'
    faults?: Omit<FaultsInput, 'schedule'> | undefined
    traceHash?: string
  },
): ScenarioInput {
  const description = [
    `Counterexample found by the property harness${meta.subject ? ` against '${meta.subject}'` : ''}.`,
    meta.traceHash ? `Replays to trace hash ${meta.traceHash}.` : '',
  ]
    .filter(Boolean)
    .join(' ')
  return {
    name: meta.name.replace(/[^A-Za-z0-9_-]/g, '-').replace(/^[^A-Za-z]/, 'x'),
    description,
    seed: program.seed,
    ...(meta.subject && meta.subjectKind ? { harness: { [meta.subjectKind]: meta.subject } } : {}),
    workload: program.steps.map(toStep),
    faults: { ...(meta.faults ?? {}), schedule: program.faults.map((f) => ({ ...f })) } as ScenarioInput['faults'],
  }
}

/**
 * Reads a harness program back from a scenario (validated with the scenario schema).
 *
 * @example
 * const { program, faults } = programOf(JSON.parse(readFileSync(file, 'utf8')))
 */
export function programOf(input: unknown): { program: Program; faults: Omit<FaultsInput, 'schedule'> } {
  const s = scenarioSchema.parse(input)
  const { schedule, ...rates } = s.faults
  return {
    program: { seed: Number(s.seed), steps: s.workload.map(fromStep), faults: schedule },
    faults: rates as Omit<FaultsInput, 'schedule'>,
  }
}

/**
 * Writes a scenario file for a failing program; returns its path.
 *
 * @example
 * writeScenarioFile('reports/counterexamples', scenarioOf(program, { name: 'x' }))
 */
export function writeScenarioFile(dir: string, scenario: ScenarioInput): string {
  mkdirSync(dir, { recursive: true })
  const file = join(dir, `${scenario.name}-${String(scenario.seed)}.json`)
  writeFileSync(file, `${JSON.stringify(scenario, null, 2)}\n`)
  return file
}

/**
 * Reads a scenario file written by `writeScenarioFile`.
 *
 * @example
 * const { program, faults } = readScenarioFile(file)
 */
export function readScenarioFile(file: string): { program: Program; faults: Omit<FaultsInput, 'schedule'> } {
  return programOf(JSON.parse(readFileSync(file, 'utf8')))
}
