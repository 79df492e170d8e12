import type { Simulator } from '#simulator/index.js'
import type { RunOptions } from './run-options.js'
import { needsOf, type PreparedRun, prepareRun } from './setup.js'
import { simulatorKeyOf } from './simulator-choice.js'

// The prepared simulators: a setup depends only on the subjects present, the simulator options
// (header prefix, API version...) and the base (faults and seeds come after it, the subjects are
// made per run), so one per combination serves every run of every check, including `assertRun`
// called with a new options object each time. Those on a base are held weakly with it; the others
// (three per set of simulator options) for the process.
const preparedShared = new Map<string, Promise<PreparedRun>>()
const preparedOnBase = new WeakMap<Simulator, Map<string, Promise<PreparedRun>>>()

/**
 * The prepared (set up) simulator that runs with these subjects and base fork from.
 *
 * @example
 * const start = await preparedFor({ reporter })
 */
export function preparedFor(options: RunOptions): Promise<PreparedRun> {
  const needs = needsOf(options)
  const key = `${needs.reporter ? 'reporter' : ''}+${needs.webhook ? 'webhook' : ''}+${options.base === undefined ? simulatorKeyOf(options) : ''}`
  let cache = preparedShared
  if (options.base !== undefined) {
    cache = preparedOnBase.get(options.base) ?? new Map()
    preparedOnBase.set(options.base, cache)
  }
  let p = cache.get(key)
  if (p === undefined) {
    p = prepareRun(options)
    cache.set(key, p)
    // A failed setup is not kept: the next run tries again (and reports the failure itself).
    p.catch(() => cache.delete(key))
  }
  return p
}
