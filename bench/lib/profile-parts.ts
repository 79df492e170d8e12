import { Session } from 'node:inspector/promises'

/** A V8 CPU profile as the inspector's Profiler.stop returns it. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[]
  samples: number[]
  timeDeltas: number[]
}

/**
 * One part of a run: a name and a test on a stack frame (its file URL and function name).
 *
 * @example
 * const signing: PartRule = { name: 'signing', test: (url) => url.includes('/delivery/signature') }
 */
export interface PartRule {
  readonly name: string
  readonly test: (url: string, fn: string) => boolean
}

/**
 * Profiles `work` in this process with V8's sampling profiler and attributes each sample to the
 * first rule (in order) that some frame of its stack matches, or to `other`: an inclusive view, so
 * the billing code's own engine writes count as billing, while a more specific part listed before
 * it (rendering an event, signing) keeps its samples wherever it is called from. Returns the
 * sampled milliseconds per part and in all.
 *
 * @example
 * const { parts, total } = await profileParts(rules, () => runMany())
 */
export async function profileParts(
  rules: readonly PartRule[],
  work: () => Promise<void>,
  intervalUs = 100,
): Promise<{ parts: Map<string, number>; total: number; unmatched: Map<string, number> }> {
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.setSamplingInterval', { interval: intervalUs })
  await session.post('Profiler.start')
  let profile: CpuProfile
  try {
    await work()
  } finally {
    profile = ((await session.post('Profiler.stop')) as { profile: CpuProfile }).profile
    session.disconnect()
  }
  const parent = new Map<number, number>()
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const partOf = new Map<number, string>()
  const classify = (id: number): string => {
    const known = partOf.get(id)
    if (known !== undefined) return known
    const frames: { url: string; fn: string }[] = []
    for (let c: number | undefined = id; c !== undefined; c = parent.get(c)) {
      const f = byId.get(c)?.callFrame
      if (f !== undefined) frames.push({ url: f.url, fn: f.functionName })
    }
    const rule = rules.find((r) => frames.some((f) => r.test(f.url, f.fn)))
    const name = rule?.name ?? 'other'
    partOf.set(id, name)
    return name
  }
  const parts = new Map<string, number>()
  // What `other` is made of, by the function it was in: for a reader tuning the rules.
  const unmatched = new Map<string, number>()
  let total = 0
  for (let i = 0; i < profile.samples.length; i++) {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000
    const id = profile.samples[i] as number
    const name = classify(id)
    parts.set(name, (parts.get(name) ?? 0) + ms)
    if (name === 'other') {
      const f = byId.get(id)?.callFrame
      const key = `${f?.functionName || '(anonymous)'} ${f?.url.replace(/^.*\/(src|node_modules)\//, '$1/') ?? ''}`
      unmatched.set(key, (unmatched.get(key) ?? 0) + ms)
    }
    total += ms
  }
  return { parts, total, unmatched }
}
