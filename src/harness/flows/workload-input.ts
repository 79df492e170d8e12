import { faultKinds } from '#faults/index.js'
import { HarnessInputError, shownValue } from '../validate-input.js'
import type { FlowAdversity, FlowWorkload } from './flow-program.js'

// Every key of `FlowWorkload`, checked by the compiler: a new option cannot be forgotten here.
const WORKLOAD_KEYS: ReadonlySet<string> = new Set(
  Object.keys({
    everyEvent: true,
    maxSteps: true,
    minSteps: true,
    maxFaults: true,
    faultKinds: true,
    extraSteps: true,
    builtInSteps: true,
    firstStep: true,
    episodes: true,
    episodeShare: true,
    faultAims: true,
    adversity: true,
  } satisfies Record<keyof FlowWorkload, true>),
)

const ADVERSITY: readonly FlowAdversity[] = ['redeploy', 'roll_secret', 'forge', 'redeliver']
const KINDS: ReadonlySet<string> = new Set(faultKinds)

const isArbitrary = (x: unknown) => typeof (x as { generate?: unknown } | null)?.generate === 'function'

/** The problem with one workload option's value, or undefined. */
function problem(key: string, v: unknown): string | undefined {
  const int = (min: number) => (Number.isInteger(v) && (v as number) >= min ? undefined : `must be an integer >= ${min}`)
  switch (key) {
    case 'everyEvent':
    case 'builtInSteps':
      return typeof v === 'boolean' ? undefined : 'must be true or false'
    case 'maxSteps':
      return int(1)
    case 'minSteps':
    case 'maxFaults':
      return int(0)
    case 'episodeShare':
      return typeof v === 'number' && v >= 0 && v <= 1 ? undefined : 'must be a number from 0 to 1'
    case 'faultKinds': {
      if (!Array.isArray(v)) return `must be an array of fault kinds (${faultKinds.join(', ')})`
      const bad = v.filter((k) => !KINDS.has(k as string))
      return bad.length === 0
        ? undefined
        : `names unknown fault kind(s) ${bad.map((k) => JSON.stringify(k)).join(', ')}; known: ${faultKinds.join(', ')}`
    }
    case 'faultAims':
      return Array.isArray(v) && v.every((a) => typeof a === 'string')
        ? undefined
        : 'must be an array of event type prefixes (strings)'
    case 'extraSteps':
    case 'episodes':
      return Array.isArray(v) && v.every(isArbitrary) ? undefined : 'must be an array of fast-check arbitraries'
    case 'firstStep':
      return isArbitrary(v) ? undefined : 'must be a fast-check arbitrary'
    case 'adversity':
      return adversityProblem(v)
    default:
      return undefined
  }
}

function adversityProblem(v: unknown): string | undefined {
  if (v === false) return undefined
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return `must be false or { kinds?, weight? }`
  const { kinds, weight } = v as { kinds?: unknown; weight?: unknown }
  if (kinds !== undefined && !(Array.isArray(kinds) && kinds.every((k) => ADVERSITY.includes(k as FlowAdversity))))
    return `kinds must be an array of ${ADVERSITY.join(', ')}`
  if (weight !== undefined && !(typeof weight === 'number' && weight > 0 && Number.isFinite(weight)))
    return 'weight must be a positive number'
  return undefined
}

/**
 * Refuses a workload a check cannot run as the caller meant: a misspelt option (it would silently
 * run the default workload), or a value of the wrong kind (a string where a list of fault kinds
 * goes, a negative count), each named with the API and the option.
 *
 * @example
 * refuseBadWorkload('checkDunning', { faultKinds: ['duplicate_delivery'] }) // fine
 * refuseBadWorkload('checkDunning', { maxFaults: -1 }) // throws HarnessInputError naming workload.maxFaults
 */
export function refuseBadWorkload(api: string, workload: unknown): void {
  if (workload === undefined) return
  if (typeof workload !== 'object' || workload === null || Array.isArray(workload))
    throw new HarnessInputError(`${api}: option 'workload' must be an object`)
  const unknown = Object.keys(workload).filter((k) => !WORKLOAD_KEYS.has(k))
  if (unknown.length > 0)
    throw new HarnessInputError(
      `${api}: unknown workload option(s) ${unknown.map((k) => `'${k}'`).join(', ')}; known: ${[...WORKLOAD_KEYS].join(', ')}`,
    )
  for (const [key, value] of Object.entries(workload)) {
    if (value === undefined) continue
    const why = problem(key, value)
    if (why !== undefined) throw new HarnessInputError(`${api}: option 'workload.${key}' ${why}, got ${shownValue(value)}`)
  }
  const { minSteps, maxSteps } = workload as FlowWorkload
  if (minSteps !== undefined && maxSteps !== undefined && minSteps > maxSteps)
    throw new HarnessInputError(
      `${api}: option 'workload.minSteps' (${minSteps}) must not exceed 'workload.maxSteps' (${maxSteps})`,
    )
}
