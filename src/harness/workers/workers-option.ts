import { isAbsolute, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { HarnessInputError } from '../validate-input.js'

/**
 * The `workers` option of every property check: how many worker threads run the property's runs,
 * and where a worker finds the subject's factory. A number alone serves the factories the harness
 * exports (`referenceSubscriptionMirror`, ...); a factory of the user's own is a function of the
 * calling thread, which no other thread can reach, so `module` names the module that exports it
 * (under the factory's own name, or `export`).
 *
 * @example
 * const two: WorkersOption = 2
 * const mine: WorkersOption = { count: 2, module: new URL('./my-mirror.ts', 'file:///app/test/') }
 */
export type WorkersOption =
  | number
  | {
      /** Worker threads (1 runs in this thread, as without the option). */
      readonly count: number
      /** The module (a file URL or path) that exports the factory, as a worker thread imports it. */
      readonly module?: string | URL
      /** The factory's export name in `module` (default: the factory function's own name). */
      readonly export?: string
    }

/** Where a worker thread finds the factory: an export of `module`, or of the harness itself. */
export interface FactoryRef {
  /** A file URL; absent for a factory the harness exports. */
  readonly module?: string
  readonly export: string
}

/** A validated `workers` option that asks for more than one thread. */
export interface WorkerPlan {
  readonly count: number
  readonly factory: FactoryRef
}

const MAX_WORKERS = 256
const describe = (v: unknown): string =>
  typeof v === 'string' ? `'${v}'` : typeof v === 'number' ? String(v) : v === null ? 'null' : typeof v

function countOf(api: string, option: unknown): number {
  const count = typeof option === 'object' && option !== null ? (option as { count?: unknown }).count : option
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_WORKERS)
    throw new HarnessInputError(
      `${api}: option 'workers' must be a whole number of threads from 1 to ${MAX_WORKERS}, or { count, module }; got ${describe(count)}`,
    )
  return count
}

function moduleOf(api: string, module: unknown): string | undefined {
  if (module === undefined) return undefined
  if (module instanceof URL) return module.href
  if (typeof module !== 'string' || module === '')
    throw new HarnessInputError(`${api}: option 'workers.module' must be a file URL or path, got ${describe(module)}`)
  if (/^[a-z][a-z0-9+.-]*:/i.test(module) && !/^[a-z]:[\\/]/i.test(module)) {
    if (!module.startsWith('file:'))
      throw new HarnessInputError(`${api}: option 'workers.module' must be a file URL or path, got '${module}'`)
    return module
  }
  return pathToFileURL(isAbsolute(module) ? module : resolve(module)).href
}

function shapeOf(api: string, option: object): { module?: string; export?: string } {
  const unknown = Object.keys(option).filter((k) => !['count', 'module', 'export'].includes(k))
  if (unknown.length > 0)
    throw new HarnessInputError(`${api}: option 'workers' has unknown key '${unknown[0]}' (expected count, module, export)`)
  const o = option as { module?: unknown; export?: unknown }
  if (o.export !== undefined && (typeof o.export !== 'string' || !/^[A-Za-z_$][\w$]*$/.test(o.export)))
    throw new HarnessInputError(`${api}: option 'workers.export' must be an export name, got ${describe(o.export)}`)
  const module = moduleOf(api, o.module)
  return { ...(module === undefined ? {} : { module }), ...(o.export === undefined ? {} : { export: o.export as string }) }
}

/** The name the harness exports `factory` under, if it does (its reference clients). */
async function harnessExportOf(factory: unknown): Promise<string | undefined> {
  const harness: Record<string, unknown> = await import('../index.js')
  return Object.keys(harness).find((name) => harness[name] === factory)
}

/**
 * The name `module` exports `factory` under, when this thread can import the module and gets the
 * instance the caller has (node, tsx, vitest): `export const mirror = makeMirror()` has no name of
 * its own. Anything else (a loader this thread lacks) leaves the name to the function or the option.
 */
async function exportNameIn(module: string, factory: unknown): Promise<string | undefined> {
  try {
    const exports: Record<string, unknown> = await import(module)
    return Object.keys(exports).find((name) => exports[name] === factory)
  } catch {
    return undefined
  }
}

/**
 * Checks a check's `workers` option and finds where a worker thread reaches the factory:
 * `undefined` when the runs stay in this thread (no option, or one thread). Refuses, naming the
 * option, a count that is not a whole number of threads and a factory a worker cannot reach.
 *
 * @example
 * const plan = await workerPlanOf('checkDunning', 2, referenceDunningClient) // { count: 2, factory: { export: 'referenceDunningClient' } }
 */
export async function workerPlanOf(api: string, option: unknown, factory: unknown): Promise<WorkerPlan | undefined> {
  if (option === undefined) return undefined
  const count = countOf(api, option)
  const shape = typeof option === 'object' && option !== null ? shapeOf(api, option) : {}
  if (count === 1) return undefined
  if (shape.module === undefined) {
    const name = await harnessExportOf(factory)
    if (name !== undefined) return { count, factory: { export: name } }
    const own = typeof factory === 'function' && factory.name !== '' ? ` '${factory.name}'` : ''
    throw new HarnessInputError(
      `${api}: option 'workers': the factory${own} is a function of this thread, which a worker thread cannot reach; export it from a module and name that module: workers: { count: ${count}, module: new URL('./its-module.ts', import.meta.url) }`,
    )
  }
  const name = shape.export ?? (await exportNameIn(shape.module, factory)) ?? (typeof factory === 'function' ? factory.name : '')
  if (name === '' || !/^[A-Za-z_$][\w$]*$/.test(name))
    throw new HarnessInputError(
      `${api}: option 'workers': the factory has no name to find it by in '${shape.module}': give workers.export, the name the module exports it under`,
    )
  return { count, factory: { module: shape.module, export: name } }
}

/**
 * Refuses the options of a check that cannot go to a worker thread: a `base` simulator and
 * functions (a worker gets a copy of plain data only).
 *
 * @example
 * assertTransferable('checkDunning', { faults: { preset: 'realistic' } })
 */
export function assertTransferable(api: string, options: Readonly<Record<string, unknown>>): void {
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined) continue
    if (key === 'base')
      throw new HarnessInputError(
        `${api}: option 'base' is a simulator of this thread, which worker threads cannot share: pass its options as 'simOptions', or drop 'workers'`,
      )
    try {
      structuredClone(value)
    } catch {
      throw new HarnessInputError(
        `${api}: option '${key}' holds functions, which cannot go to a worker thread: drop it, or drop 'workers'`,
      )
    }
  }
}
