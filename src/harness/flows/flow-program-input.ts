import { HarnessInputError, refuseBadFaultEntries, shownValue } from '../validate-input.js'
import { FLOW_FORGERIES, type FlowProgram } from './flow-program.js'

type Field = 'index' | 'count' | 'duration' | 'flag' | 'text' | 'forgery'

// The fields of each built-in step kind and what each holds. Indexes may be negative (counted from
// the end: `sub: -1` is the latest subscription); counts and durations may not.
const STEP_FIELDS: Readonly<Record<string, Readonly<Record<string, Field>>>> = {
  subscribe: { customer: 'index', plan: 'index', quantity: 'count', trialDays: 'count' },
  change_plan: { sub: 'index', plan: 'index' },
  change_quantity: { sub: 'index', quantity: 'count' },
  end_trial: { sub: 'index' },
  fail_card: { customer: 'index' },
  recover: { customer: 'index' },
  cancel: { sub: 'index', atPeriodEnd: 'flag' },
  resume: { sub: 'index' },
  advance: { ms: 'duration' },
  redeploy: {},
  roll_secret: { redeployAfterMs: 'duration' },
  forge: { forgery: 'forgery', aim: 'text' },
  redeliver: { aim: 'text' },
}

// Read when a step is refused, not at load: this module and flow-program.ts import each other.
const holdsText = (field: Field): string =>
  field === 'forgery'
    ? `one of ${FLOW_FORGERIES.join(', ')}`
    : {
        index: 'an integer',
        count: 'an integer >= 0',
        duration: 'a finite number of milliseconds >= 0',
        flag: 'true or false',
        text: 'a string',
      }[field]

function holds(field: Field, v: unknown): boolean {
  switch (field) {
    case 'index':
      return Number.isInteger(v)
    case 'count':
      return Number.isInteger(v) && (v as number) >= 0
    case 'duration':
      return typeof v === 'number' && Number.isFinite(v) && v >= 0
    case 'flag':
      return typeof v === 'boolean'
    case 'text':
      return typeof v === 'string'
    case 'forgery':
      return (FLOW_FORGERIES as readonly unknown[]).includes(v)
  }
}

/**
 * The problem with one step, or undefined; a property's own kinds (`x:...`) are its actions' to check.
 *
 * @example
 * stepProblem({ kind: 'advance', minutes: 1 }) // "('advance') has unknown field(s) 'minutes'; its fields: ms"
 */
export function stepProblem(step: unknown): string | undefined {
  if (typeof step !== 'object' || step === null || Array.isArray(step)) return `must be an object, got ${shownValue(step)}`
  const { kind, settleMs, ...fields } = step as Record<string, unknown>
  if (settleMs !== undefined && (kind === 'advance' || !holds('duration', settleMs)))
    return kind === 'advance'
      ? `('advance') has unknown field 'settleMs'; a wait is its own 'ms'`
      : `('${String(kind)}') field 'settleMs' must be ${holdsText('duration')}, got ${shownValue(settleMs)}`
  if (typeof kind === 'string' && kind.startsWith('x:')) return undefined
  const known = typeof kind === 'string' && Object.hasOwn(STEP_FIELDS, kind) ? STEP_FIELDS[kind] : undefined
  if (known === undefined)
    return `has unknown kind ${shownValue(kind)} (expected one of ${Object.keys(STEP_FIELDS).join(', ')}, or a property's own 'x:...')`
  const extra = Object.keys(fields).filter((k) => !Object.hasOwn(known, k))
  if (extra.length > 0)
    return `('${String(kind)}') has unknown field(s) ${extra.map((k) => `'${k}'`).join(', ')}; its fields: ${Object.keys(known).join(', ') || 'none'}`
  for (const [name, field] of Object.entries(known))
    if (!holds(field, fields[name]))
      return `('${String(kind)}') field '${name}' must be ${holdsText(field)}, got ${shownValue(fields[name])}`
  return undefined
}

/**
 * Refuses a flow program a run cannot carry out as written: a misspelt step kind or field (an
 * `advance` of `minutes` instead of `ms` never ends), a value of the wrong kind, a fault entry the
 * fault engine does not know. Generated programs always pass; this guards programs a user writes.
 *
 * @example
 * refuseBadFlowProgram('runFlow', { seed: 0, steps: [{ kind: 'advance', ms: 60_000 }], faults: [] }) // fine
 * refuseBadFlowProgram('runFlow', { seed: 0, steps: [{ kind: 'advance', minutes: 1 }], faults: [] }) // throws, naming step 0
 */
export function refuseBadFlowProgram(api: string, program: unknown): asserts program is FlowProgram {
  if (typeof program !== 'object' || program === null || Array.isArray(program))
    throw new HarnessInputError(`${api}: a flow program must be an object { seed, steps, faults }, got ${shownValue(program)}`)
  const p = program as Record<string, unknown>
  const extra = Object.keys(p).filter((k) => !['seed', 'steps', 'faults', 'everyEvent'].includes(k))
  if (extra.length > 0)
    throw new HarnessInputError(
      `${api}: unknown program field(s) ${extra.map((k) => `'${k}'`).join(', ')}; known: seed, steps, faults, everyEvent`,
    )
  if (!Number.isInteger(p.seed))
    throw new HarnessInputError(`${api}: program 'seed' must be an integer, got ${shownValue(p.seed)}`)
  if (p.everyEvent !== undefined && typeof p.everyEvent !== 'boolean')
    throw new HarnessInputError(`${api}: program 'everyEvent' must be true or false, got ${shownValue(p.everyEvent)}`)
  if (!Array.isArray(p.steps))
    throw new HarnessInputError(`${api}: program 'steps' must be an array of steps, got ${shownValue(p.steps)}`)
  p.steps.forEach((step: unknown, i) => {
    const why = stepProblem(step)
    if (why !== undefined) throw new HarnessInputError(`${api}: step ${i} ${why}`)
  })
  refuseBadFaultEntries(api, p.faults)
}
