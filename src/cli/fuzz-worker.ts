import { dirname, resolve } from 'node:path'
import { loadScenarioFile } from '#harness/scenario/load-scenario.js'
import { loadClientModule, runScenario } from '#harness/scenario/run-scenario.js'

/** One fuzz task: a scenario file and a seed. */
export interface FuzzTask {
  readonly file: string
  readonly seed: number
  readonly client?: string | undefined
  /** `--header-prefix`: replaces the scenario's `header_prefix`. */
  readonly headerPrefix?: string | undefined
}

/** What a fuzz run reports back. */
export interface FuzzOutcome {
  readonly seed: number
  readonly ok: boolean
  readonly violated: string[]
  readonly traceHash: string
  readonly faults: { step: number; fault: string; params: Record<string, unknown> }[]
}

/**
 * Runs one seed of a scenario (in a tinypool worker, or in process).
 *
 * @example
 * const outcome = await runFuzzTask({ file: 'scenarios/default.yaml', seed: 3 })
 */
export async function runFuzzTask(task: FuzzTask): Promise<FuzzOutcome> {
  const loaded = loadScenarioFile(task.file)
  const scenario = task.headerPrefix === undefined ? loaded : { ...loaded, header_prefix: task.headerPrefix }
  const client = task.client ? await loadClientModule(task.client, process.cwd()) : undefined
  const result = await runScenario(scenario, {
    seed: task.seed,
    baseDir: dirname(resolve(task.file)),
    ...(client ? { client } : {}),
  })
  return {
    seed: task.seed,
    ok: result.ok,
    violated: result.verdicts.filter((v) => !v.ok).map((v) => `${v.name}: ${v.message}`),
    traceHash: result.traceHash,
    faults: result.faults.filter((f) => f.applied).map((f) => ({ step: f.step, fault: f.fault, params: { ...f.params } })),
  }
}

export default runFuzzTask
