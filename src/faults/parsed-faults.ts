import { type Faults, type FaultsInput, faultSchemas } from './faults-schema.js'

/** What the schema answered: the parsed section, or its first issue. */
export type FaultsParse = ReturnType<ReturnType<typeof faultSchemas>['faultsSchema']['safeParse']>

// Schedule entries the schema has accepted, by their written form, with what it made of them. A
// property's runs draw their schedules from a few kinds and steps, so most entries repeat.
const accepted = new Map<string, Readonly<Record<string, unknown>>>()
const MAX_ACCEPTED = 4096

/** The written form of a flat entry (primitive values only), else undefined: such an entry is not remembered. */
function entryKey(entry: unknown): string | undefined {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return undefined
  let key = ''
  for (const [name, value] of Object.entries(entry)) {
    const t = typeof value
    if (t !== 'string' && t !== 'boolean' && !(t === 'number' && Number.isFinite(value))) return undefined
    key += `${name}\u0000${t[0]}${String(value)}\u0001`
  }
  return key
}

/** The section from remembered entries, when it holds only a schedule (and a preset or swarm) of entries all seen before. */
function fromAccepted(input: FaultsInput | Faults): Faults | undefined {
  const schedule = input.schedule
  if (!Array.isArray(schedule)) return undefined
  for (const name of Object.keys(input)) if (name !== 'preset' && name !== 'swarm' && name !== 'schedule') return undefined
  if (input.preset !== undefined && input.preset !== 'none' && input.preset !== 'realistic') return undefined
  if (input.swarm !== undefined && typeof input.swarm !== 'boolean') return undefined
  const entries: Record<string, unknown>[] = []
  for (const entry of schedule) {
    const key = entryKey(entry)
    const known = key === undefined ? undefined : accepted.get(key)
    if (known === undefined) return undefined
    entries.push({ ...known })
  }
  const out: Record<string, unknown> = {}
  if ('preset' in input) out.preset = input.preset
  if ('swarm' in input) out.swarm = input.swarm
  out.schedule = entries
  return out as unknown as Faults
}

/**
 * The `faults` section through its schema, or without it when every schedule entry is one the schema
 * accepted before (each fork of a property run names its program's scheduled faults, and building
 * the same result again through the schema was about a tenth of a fork). Refusals always come from
 * the schema, worded as ever.
 *
 * @example
 * const parsed = parseFaults({ schedule: [{ step: 2, fault: 'receiver_down', receiver: 'shop' }] })
 * if (parsed.success) parsed.data.schedule.length // 1
 */
export function parseFaults(input: FaultsInput | Faults): FaultsParse {
  const known = fromAccepted(input)
  if (known !== undefined) return { success: true, data: known } as FaultsParse
  const parsed = faultSchemas().faultsSchema.safeParse(input)
  if (!parsed.success || !Array.isArray(input.schedule)) return parsed
  input.schedule.forEach((entry, i) => {
    const key = entryKey(entry)
    const made = parsed.data.schedule[i]
    if (key === undefined || made === undefined) return
    if (accepted.size >= MAX_ACCEPTED) accepted.clear()
    accepted.set(key, Object.freeze({ ...made }))
  })
  return parsed
}
