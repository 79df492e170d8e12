import type { DashboardAnswer } from '../dashboard/dashboard-page.js'
import type { CounterexampleSource } from './counterexample-source.js'

/**
 * Where the dashboard reads counterexamples: the list, and one step-through by file name below it.
 *
 * @example
 * `${COUNTEREXAMPLES_PATH}/${encodeURIComponent('no-dedup-0.json')}` // '/__dashboard/counterexamples/no-dedup-0.json'
 */
export const COUNTEREXAMPLES_PATH = '/__dashboard/counterexamples'

const JSON_HEADERS = {
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
}

const json = (status: number, body: unknown): DashboardAnswer => ({
  status,
  headers: JSON_HEADERS,
  text: JSON.stringify(body),
})

const failure = (status: number, code: string, message: string) =>
  json(status, { error: { type: 'invalid_request_error', code, message } })

/**
 * Answers the dashboard's reads of counterexamples: `GET /__dashboard/counterexamples` lists the
 * files (newest first) with the directory, `GET /__dashboard/counterexamples/<name>` replays one
 * and answers its step-through. Undefined for a path that is not one of these. Without a source
 * (serve started without `--counterexamples`), the list is empty and says so.
 *
 * @example
 * const answer = await answerCounterexamples(source, '/__dashboard/counterexamples')
 */
export async function answerCounterexamples(
  source: CounterexampleSource | undefined,
  pathname: string,
): Promise<DashboardAnswer | undefined> {
  if (pathname === COUNTEREXAMPLES_PATH) return json(200, { path: source?.path ?? null, files: source?.files() ?? [] })
  if (!pathname.startsWith(`${COUNTEREXAMPLES_PATH}/`)) return undefined
  let name: string
  try {
    name = decodeURIComponent(pathname.slice(COUNTEREXAMPLES_PATH.length + 1))
  } catch {
    return failure(400, 'parameter_invalid', 'the counterexample name is not valid percent-encoding')
  }
  const walk = source?.walk(name)
  if (walk === undefined) return failure(404, 'resource_missing', `no counterexample named ${JSON.stringify(name)}`)
  try {
    return json(200, await walk)
  } catch (error) {
    return failure(422, 'counterexample_unreplayable', `${name} cannot be replayed: ${(error as Error).message}`)
  }
}
