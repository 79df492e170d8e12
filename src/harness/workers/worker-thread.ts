import { parentPort, workerData } from 'node:worker_threads'
import { importOptional } from '../optional-package.js'
import type { RunVerdict } from './parallel-runs.js'
import { type PlanMessage, planRunner } from './run-plan.js'
import { recipePredicate, type SubjectRecipe } from './subject-recipe.js'
import type { FactoryRef } from './workers-option.js'

/** What the calling thread gives a worker thread of `WorkerLanes`. */
interface WorkerInit {
  readonly recipe: SubjectRecipe
  readonly factory: FactoryRef
  /** The harness runs from its TypeScript sources, with tsx already registered here. */
  readonly fromSources: boolean
}

type Factory = (...args: never[]) => unknown

/** Imports the factory the way the calling thread named it; a TypeScript module is loaded through tsx. */
async function factoryOf(init: WorkerInit): Promise<Factory> {
  const { module, export: name } = init.factory
  let exports: Record<string, unknown>
  if (module === undefined) {
    exports = await import('../index.js')
  } else {
    if (/\.[cm]?tsx?$/.test(new URL(module).pathname) && !init.fromSources) {
      const tsx = await importOptional('tsx', () => import('tsx/esm/api'), `loading the TypeScript module '${module}'`)
      tsx.register()
    }
    try {
      exports = await import(module)
    } catch (error) {
      throw new Error(`its module '${module}' could not be loaded in a worker thread: ${(error as Error).message}`)
    }
  }
  const factory = exports[name]
  if (typeof factory !== 'function')
    throw new Error(`'${module ?? 'service-sim/harness'}' has no function export '${name}' (give workers.export, its name there)`)
  return factory as Factory
}

/** A run's answer: the property held or not, or what the run threw. */
async function answer(holds: (program: unknown) => Promise<RunVerdict>, program: unknown) {
  try {
    const verdict = await holds(program)
    return typeof verdict === 'boolean' ? { ok: verdict } : verdict
  } catch (error) {
    const e = error as Error
    return { error: { message: String(e?.message ?? e), harnessInput: e?.name === 'HarnessInputError' } }
  }
}

/**
 * The body of a worker thread of `WorkerLanes`: on `{ init }` it finds the factory and says it is
 * ready (a thread serves one check after another, each with its own init); then, for each plan it
 * is sent, it takes the plan's free programs itself, runs them and answers, for each, whether the
 * property held or what the run threw.
 *
 * @example
 * // started by WorkerLanes as new Worker(url, { workerData: { fromSources } })
 * serveRuns()
 */
export function serveRuns(): void {
  const port = parentPort
  if (port === null) return
  const fromSources = (workerData as { fromSources?: boolean } | undefined)?.fromSources === true
  let holds: (program: unknown) => Promise<RunVerdict> = async () => {
    throw new Error('no check is set up in this worker thread')
  }
  const plans = planRunner(
    (program) => answer(holds, program),
    (result) => port.postMessage(result),
  )
  port.on('message', async (message: { init?: Omit<WorkerInit, 'fromSources'> } & Partial<PlanMessage>) => {
    if (message.plan !== undefined) return plans.take(message.plan)
    if (message.init === undefined) return
    try {
      const init = { ...message.init, fromSources }
      holds = recipePredicate(init.recipe, await factoryOf(init))
      port.postMessage({ ready: true })
    } catch (error) {
      port.postMessage({ startError: (error as Error).message })
    }
  })
}

serveRuns()
