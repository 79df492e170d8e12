import type { RunResult } from '#harness/scenario/run-result.js'
import type { TraceEntry } from '#kernel/index.js'
import type { KeptAnswer } from './answer-capture.js'
import { appMomentOf, detailOf } from './app-moment.js'
import type { Moment, WalkStep, Walkthrough, WalkVerdict } from './walkthrough.js'

/** Most characters of a body the step-through shows. */
const MAX_BODY = 4096

/**
 * What a replay hands the builder: its result, its trace, where steps end in it and the app's answers.
 *
 * @example
 * const run: ReplayedRun = { file, result, entries: trace.entries(), bounds: [3, 9, 14], answers: [] }
 */
export interface ReplayedRun {
  readonly file: string
  readonly result: RunResult
  readonly entries: readonly TraceEntry[]
  /**
   * The trace length before the first step and after each step, when the replay followed the run
   * (otherwise entries are placed by their virtual time).
   */
  readonly bounds?: readonly number[] | undefined
  readonly answers: readonly KeptAnswer[]
}

/** Provider-side happenings worth a line in the picture; any other kind shows only as a witness. */
const PROVIDER_NOTES: Readonly<Record<string, string>> = {
  'delivery.exhausted': 'retries exhausted',
  'delivery.cancelled': 'delivery cancelled',
  'destination.secret_rolled': 'signing secret rolled',
  'destination.disabled': 'endpoint disabled',
  'destination.enabled': 'endpoint enabled',
}

const clip = (text: unknown): string | undefined =>
  typeof text === 'string' ? (text.length > MAX_BODY ? `${text.slice(0, MAX_BODY)}…` : text) : undefined

/** The witnessing entries of each violated verdict, by sequence number. */
function verdictsOf(result: RunResult): WalkVerdict[] {
  return result.verdicts.map((v) => {
    const seq = (v.witness as { seq?: unknown } | undefined)?.seq
    const witness = Array.isArray(seq) ? seq.filter((n): n is number => typeof n === 'number') : []
    return { name: v.name, ok: v.ok, message: v.message, witness }
  })
}

/** The answer the app gave to a delivery attempt: same event, same status, sent within the attempt. */
function answerFor(answers: KeptAnswer[], e: TraceEntry<'delivery.attempt'>): string | undefined {
  const from = e.at - e.data.duration
  const i = answers.findIndex((a) => a.event === e.data.event && a.status === e.data.status && a.at >= from && a.at <= e.at)
  if (i < 0) return undefined
  const [found] = answers.splice(i, 1)
  return found?.body
}

/** The moment an entry shows as, or undefined for bookkeeping the picture leaves out. */
function momentOf(e: TraceEntry, types: Map<string, string>, answers: KeptAnswer[]): Moment | undefined {
  const base = { seq: e.seq, at: e.at }
  if (e.kind === 'http') {
    const d = e.data
    return {
      ...base,
      kind: 'request',
      method: d.method,
      path: d.path,
      status: d.status,
      ...(d.request_id === null ? {} : { requestId: d.request_id }),
      ...(clip(d.request) === undefined ? {} : { request: clip(d.request) as string }),
      ...(clip(d.response) === undefined ? {} : { response: clip(d.response) as string }),
    }
  }
  if (e.kind === 'event.emitted') {
    types.set(e.data.id, e.data.type)
    return { ...base, kind: 'event', id: e.data.id, type: e.data.type }
  }
  if (e.kind === 'delivery.attempt') {
    const d = e.data
    const type = types.get(d.event)
    const answer = answerFor(answers, e)
    return {
      ...base,
      kind: 'delivery',
      event: d.event,
      ...(type === undefined ? {} : { type }),
      destination: d.destination,
      attempt: d.attempt,
      trigger: d.trigger,
      outcome: d.outcome,
      status: d.status,
      duration: d.duration,
      ...(answer === undefined ? {} : { answer }),
      next: d.next,
    }
  }
  if (e.kind === 'delivery.replay') {
    const d = e.data
    const type = types.get(d.event)
    return {
      ...base,
      kind: 'delivery',
      event: d.event,
      ...(type === undefined ? {} : { type }),
      destination: d.destination,
      attempt: 0,
      trigger: 'replayed by an attacker',
      outcome: d.outcome,
      status: d.status,
      duration: 0,
      next: null,
    }
  }
  return otherMomentOf(e)
}

/** Faults, the receiver's state, the app's records (redeploys, forgeries, actions) and the provider's notes. */
function otherMomentOf(e: TraceEntry): Moment | undefined {
  const base = { seq: e.seq, at: e.at }
  if (e.kind === 'fault') return { ...base, kind: 'fault', fault: e.data.kind, source: e.data.source, detail: e.data.label }
  if (e.kind === 'delivery.fault') {
    const d = e.data
    const detail =
      d.kind === 'redundant_event'
        ? `${d.event} twinned by ${d.twin}`
        : `${d.event} to ${d.destination}${d.delay > 0 ? ` after ${d.delay} ms` : ''}`
    return { ...base, kind: 'fault', fault: d.kind, source: 'delivery', detail }
  }
  if (e.kind === 'harness.receiver') return { ...base, kind: 'receiver', down: e.data.down }
  if (e.kind.startsWith('harness.')) return appMomentOf(e)
  const note = PROVIDER_NOTES[e.kind]
  if (note !== undefined) return { ...base, kind: 'note', lane: 'provider', what: note, detail: detailOf(e.data) }
  return undefined
}

/** Which step (0 setup, 1..n the steps, n+1 the end) each entry falls in. */
function stepIndexer(result: RunResult, bounds: readonly number[] | undefined): (e: TraceEntry) => number {
  const steps = result.steps
  if (bounds !== undefined && bounds.length === steps.length + 1)
    return (e) => {
      const i = bounds.findIndex((b) => e.seq < b)
      return i < 0 ? steps.length + 1 : i
    }
  return (e) => {
    let index = 0
    steps.forEach((s, i) => {
      if (s.at <= e.at) index = i + 1
    })
    const last = steps[steps.length - 1]
    return last !== undefined && index === steps.length && e.at > last.end ? steps.length + 1 : index
  }
}

/** The steps' frames: setup, the program's steps, the end of the run. */
function framesOf(result: RunResult, entries: readonly TraceEntry[]) {
  const first = entries[0]?.at ?? result.start
  const last = result.steps[result.steps.length - 1]
  return [
    { n: 0, at: first, end: result.steps[0]?.at ?? result.start, label: 'accounts, endpoint and subjects', ok: true },
    ...result.steps.map((s) => ({
      n: s.n,
      at: s.at,
      end: s.end,
      label: s.label,
      ok: s.ok,
      ...(s.note === undefined ? {} : { note: s.note }),
    })),
    {
      n: result.steps.length + 1,
      at: last?.end ?? result.start,
      end: result.end,
      label: 'deliveries settle, the checks read the trace',
      ok: true,
    },
  ]
}

/**
 * The step-through of a replayed counterexample: each trace entry the picture shows becomes a
 * moment of its step (requests, events, deliveries with the app's answers, faults, the app's
 * records), every entry a violated verdict cites is shown and marked with the verdict's name, and
 * the violation's step is the one holding the last witness.
 *
 * @example
 * const walk = buildWalkthrough({ file, result, entries, bounds, answers })
 */
export function buildWalkthrough(run: ReplayedRun): Walkthrough {
  const { result, entries } = run
  const verdicts = verdictsOf(result)
  const witnessOf = new Map<number, string[]>()
  for (const v of verdicts) if (!v.ok) for (const seq of v.witness) witnessOf.set(seq, [...(witnessOf.get(seq) ?? []), v.name])
  const frames = framesOf(result, entries)
  const moments: Moment[][] = frames.map(() => [])
  const hidden = frames.map(() => 0)
  const indexOf = stepIndexer(result, run.bounds)
  const types = new Map<string, string>()
  const answers = [...run.answers]
  let violationStep = -1
  for (const e of entries) {
    const i = indexOf(e)
    const witness = witnessOf.get(e.seq)
    const shown = momentOf(e, types, answers) ?? (witness === undefined ? undefined : witnessNote(e))
    if (shown === undefined) {
      hidden[i] = (hidden[i] ?? 0) + 1
      continue
    }
    moments[i]?.push(witness === undefined ? shown : { ...shown, witness })
    if (witness !== undefined) violationStep = Math.max(violationStep, i)
  }
  const steps: WalkStep[] = frames.map((f, i) => ({ ...f, moments: moments[i] ?? [], hidden: hidden[i] ?? 0 }))
  if (violationStep < 0 && verdicts.some((v) => !v.ok)) violationStep = steps.length - 1
  return {
    file: run.file,
    name: result.scenario,
    description: result.description,
    seed: result.seed,
    traceHash: result.traceHash,
    traceLength: result.traceLength,
    start: frames[0]?.at ?? result.start,
    ok: result.ok,
    verdicts,
    steps,
    violationStep,
  }
}

/** A witness of a kind the picture does not draw, shown as a note on the provider's lane. */
function witnessNote(e: TraceEntry): Moment {
  return { seq: e.seq, at: e.at, kind: 'note', lane: 'provider', what: e.kind, detail: detailOf(e.data) }
}
