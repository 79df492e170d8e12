import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FaultsInput } from '#faults/index.js'
import type { ScenarioInput } from '../scenario/schema.js'
import { scenarioSchema } from '../scenario/schema.js'
import { fromStepSpec, toStepSpec } from '../steps/program-steps.js'
import type { Program } from './program.js'

/**
 * The scenario (the format of `scenarios/scenario.schema.json`) of a harness program: seed, fault
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
    /** The runs' header prefix and API version, when not the defaults: the replay needs the same. */
    headerPrefix?: string | undefined
    apiVersion?: string | undefined
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
    ...(meta.headerPrefix === undefined ? {} : { header_prefix: meta.headerPrefix }),
    ...(meta.apiVersion === undefined ? {} : { api_version: meta.apiVersion }),
    ...(meta.subject && meta.subjectKind ? { harness: { [meta.subjectKind]: meta.subject } } : {}),
    workload: program.steps.map(toStepSpec),
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
    program: { seed: Number(s.seed), steps: s.workload.map(fromStepSpec), faults: schedule },
    faults: rates as Omit<FaultsInput, 'schedule'>,
  }
}

/**
 * Writes a scenario file for a failing program; returns its path.
 *
 * @example
 * writeScenarioFile('.service-sim/counterexamples', scenarioOf(program, { name: 'x' }))
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
