import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FaultsInput } from '#faults/index.js'
import { refuseArgument } from '../refuse-argument.js'
import { formatPath } from '../scenario/scenario-error.js'
import type { Scenario, ScenarioInput } from '../scenario/schema.js'
import { scenarioSchema } from '../scenario/schema.js'
import { fromStepSpec, toStepSpec } from '../steps/program-steps.js'
import { HarnessInputError } from '../validate-input.js'
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
  refuseArgument('scenarioOf', 'program', program, 'object')
  refuseArgument('scenarioOf', "program's steps", program.steps, 'array')
  refuseArgument('scenarioOf', "program's faults", program.faults, 'array')
  refuseArgument('scenarioOf', 'meta', meta, 'object')
  refuseArgument('scenarioOf', "meta's name", meta.name, 'string')
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
  return programOfScenario(parseScenario('programOf', 'input', input))
}

/** The scenario schema's first complaint, naming the API and where in the value. */
function parseScenario(api: string, name: string, value: unknown): Scenario {
  const parsed = scenarioSchema.safeParse(value)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const where = issue === undefined || issue.path.length === 0 ? '' : ` at '${formatPath(issue.path)}'`
  throw new HarnessInputError(`${api}: ${name} is not a scenario${where}: ${issue?.message ?? 'invalid'}`)
}

/**
 * The program and fault rates a parsed scenario describes.
 *
 * @example
 * const { program } = programOfScenario(loadScenarioFile(file))
 */
export function programOfScenario(s: Scenario): { program: Program; faults: Omit<FaultsInput, 'schedule'> } {
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
  refuseArgument('writeScenarioFile', 'dir', dir, 'string')
  // The name makes the file name: a scenario the schema refuses (a name like '../x') is not written.
  parseScenario('writeScenarioFile', 'scenario', scenario)
  mkdirSync(dir, { recursive: true })
  const file = join(dir, `${scenario.name}-${String(scenario.seed)}.json`)
  writeFileSync(file, `${JSON.stringify(scenario, null, 2)}\n`)
  return file
}
