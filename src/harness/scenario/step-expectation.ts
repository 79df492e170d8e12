import { checkOutcomes } from './expectations.js'
import type { RequestRecord, Verdict } from './run-result.js'
import type { ScenarioRun } from './scenario-run.js'
import type { StepSpec } from './schema.js'
import { fill } from './template.js'

type Expect = NonNullable<StepSpec['expect']>

/** The value at a dotted path of an answer's JSON body (undefined when a part is missing). */
function at(body: unknown, path: string): unknown {
  let v = body
  for (const k of path.split('.'))
    v = v === null || typeof v !== 'object' || !Object.hasOwn(v, k) ? undefined : (v as Record<string, unknown>)[k]
  return v
}

/** Whether one request's answer has the expected body values, Request-Id and headers. */
function answerHolds(run: ScenarioRun, e: Expect, r: RequestRecord): boolean {
  const answer = run.answers.get(r)
  const h = answer?.headers
  for (const [path, want] of Object.entries(e.body ?? {}))
    if (JSON.stringify(at(answer?.body, path) ?? null) !== JSON.stringify(fill(want, run.vars) ?? null)) return false
  if (e.request_id !== undefined && (h?.has('Request-Id') ?? false) !== e.request_id) return false
  for (const [name, want] of Object.entries(e.headers ?? {})) if ((h?.get(name) ?? null) !== want) return false
  return true
}

function requestHolds(run: ScenarioRun, e: Expect, r: RequestRecord): boolean {
  return (
    (e.status === undefined || (Array.isArray(e.status) ? e.status : [e.status]).includes(r.status)) &&
    (e.code === undefined || r.code === e.code) &&
    (e.reason === undefined || r.reason === e.reason) &&
    answerHolds(run, e, r)
  )
}

/** What the expectation asks, in words (empty when it asks nothing of each request). */
function wanted(e: Expect): string {
  return [
    e.status !== undefined ? `status ${e.status}` : '',
    e.code ? `code ${e.code}` : '',
    e.reason ? `reason ${e.reason}` : '',
    e.request_id !== undefined ? (e.request_id ? 'a Request-Id' : 'no Request-Id') : '',
    ...Object.entries(e.headers ?? {}).map(([k, v]) => (v === null ? `no ${k}` : `${k}: ${v}`)),
    ...Object.entries(e.body ?? {}).map(([k, v]) => `${k} = ${JSON.stringify(v)}`),
  ]
    .filter(Boolean)
    .join(', ')
}

function asksOfEachRequest(e: Expect): boolean {
  return (
    e.status !== undefined ||
    e.code !== undefined ||
    e.reason !== undefined ||
    e.request_id !== undefined ||
    e.headers !== undefined ||
    e.body !== undefined
  )
}

function requestVerdict(
  name: string,
  want: string,
  checked: readonly RequestRecord[],
  failing: readonly RequestRecord[],
): Verdict {
  if (failing.length === 0 && checked.length > 0)
    return { name, ok: true, message: `${want}: held for ${checked.length} request(s)` }
  const message =
    checked.length === 0
      ? `expected ${want}, but the step sent no request`
      : `expected ${want}, got ${failing.map((r) => `${r.outcome}${r.requestId ? '' : ' (no Request-Id)'}`).join(', ')}`
  return { name, ok: false, message, witness: failing.slice(0, 5) }
}

/**
 * The verdicts of a step's `expect` on the requests it sent (a client action's expectation is on
 * its last request), pushed onto the run's verdicts.
 *
 * @example
 * checkStepExpectation(run, step, run.requests.slice(run.stepFirst), 'GET /v1/account')
 */
export function checkStepExpectation(run: ScenarioRun, step: StepSpec, mine: readonly RequestRecord[], label: string): void {
  const e = step.expect
  if (e === undefined) return
  const name = `step ${run.stepNo} (${label})`
  if (asksOfEachRequest(e)) {
    const checked = step.client !== undefined && mine.length > 0 ? [mine[mine.length - 1] as RequestRecord] : mine
    const failing = mine.filter((r) => !requestHolds(run, e, r) && checked.includes(r))
    run.verdicts.push(requestVerdict(name, wanted(e), checked, failing))
  }
  if (e.outcomes) run.verdicts.push(...checkOutcomes(name, mine, e.outcomes))
}
