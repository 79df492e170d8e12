import qs from 'qs'
import { SIGNING_SECRET_PREFIX } from '#catalogue/index.js'
import { headerNames } from '#kernel/index.js'
import { StepFailure } from '../steps/step-context.js'
import type { ClientRequest, ClientResponse } from './client.js'
import type { RequestRecord } from './run-result.js'
import { accountId, type ScenarioRun } from './scenario-run.js'
import { fill } from './template.js'

const API = 'https://api.service.test'
const METER_EVENTS = 'https://meter-events.service.test'

/** Remembers the signing secret a destination's answer carries, for the receivers that verify with it. */
function noteSecrets(run: ScenarioRun, body: unknown): void {
  if (body === null || typeof body !== 'object') return
  const b = body as Record<string, any>
  const secret = b.webhook_endpoint?.signing_secret ?? b.secret
  if (typeof b.id === 'string' && typeof secret === 'string' && secret.startsWith(SIGNING_SECRET_PREFIX)) {
    const list = run.secretsByDestination.get(b.id) ?? []
    if (!list.includes(secret)) list.push(secret)
    run.secretsByDestination.set(b.id, list)
  }
}

/** The request's headers: the key of the account it is sent as, and the prefixed headers it names. */
function headersOf(run: ScenarioRun, spec: ClientRequest): Record<string, string> {
  const names = headerNames(run.sim.service.kernel.prefix)
  const headers: Record<string, string> = { ...spec.headers }
  if (spec.token !== undefined) headers.Authorization = `Bearer ${spec.token}`
  else {
    const owner = run.sim.admin.account(accountId(run, spec.as ?? 'platform'))
    if (owner === undefined) throw new StepFailure(`no account '${spec.as}'`)
    headers.Authorization = `Bearer ${owner.keys.secret[spec.mode ?? run.scenario.mode]}`
  }
  if (spec.account !== undefined) headers[names.account] = accountId(run, spec.account)
  if (spec.context !== undefined) headers[names.context] = spec.context
  if (spec.version !== undefined) headers[names.version] = spec.version
  if (spec.idempotency_key !== undefined) headers['Idempotency-Key'] = spec.idempotency_key
  return headers
}

/** The body as the path's API version takes it: JSON for `/v2`, a form for `/v1`. */
function bodyOf(spec: ClientRequest, method: string, headers: Record<string, string>): string | undefined {
  const v2 = spec.path.startsWith('/v2/')
  if (method !== 'GET' && spec.body !== undefined) {
    headers['Content-Type'] = v2 ? 'application/json' : 'application/x-www-form-urlencoded'
    return v2 ? JSON.stringify(spec.body) : qs.stringify(spec.body, { arrayFormat: 'brackets' })
  }
  if (method === 'POST' && v2) {
    headers['Content-Type'] = 'application/json'
    return '{}'
  }
  return undefined
}

function parse(text: string): any {
  try {
    return text === '' ? null : JSON.parse(text)
  } catch {
    return text
  }
}

/** Records an answer: its outcome label (`200`, `429 lock_timeout`, ...), code, reason and request id. */
function recordAnswer(
  run: ScenarioRun,
  base: Omit<RequestRecord, 'status' | 'outcome'>,
  res: Response,
  json: any,
): RequestRecord {
  const code: string | undefined = json?.error?.code ?? undefined
  const reason = res.headers.get(headerNames(run.sim.service.kernel.prefix).rateLimitedReason) ?? undefined
  const outcome = res.status < 300 ? String(res.status) : `${res.status}${reason || code ? ` ${reason ?? code}` : ''}`
  const { source, ...rest } = base
  const rec: RequestRecord = {
    ...rest,
    status: res.status,
    outcome,
    ...(code ? { code } : {}),
    ...(reason ? { reason } : {}),
    ...(res.headers.get('Request-Id') ? { requestId: res.headers.get('Request-Id') as string } : {}),
    source,
  }
  run.requests.push(rec)
  run.answers.set(rec, { headers: res.headers, body: json })
  return rec
}

/**
 * Sends one request of the scenario through `sim.fetch` (templates filled, authenticated as its
 * account) and records it under the current step. A transport failure (an indeterminate outcome:
 * the request may have been committed) is status 0 for the client.
 *
 * @example
 * const res = await sendRequest(run, { method: 'GET', path: '/v1/account' }, 'workload')
 */
export async function sendRequest(run: ScenarioRun, raw: ClientRequest, source: string): Promise<ClientResponse> {
  const spec = fill(raw, run.vars)
  const method = spec.method ?? 'GET'
  const headers = headersOf(run, spec)
  const body = bodyOf(spec, method, headers)
  const query = spec.query ? `?${qs.stringify(spec.query, { arrayFormat: 'brackets' })}` : ''
  const host = spec.path.startsWith('/v2/billing/meter_event_stream') ? METER_EVENTS : API
  const base = { step: run.stepNo, at: run.sim.clock.now, method, path: spec.path, source }
  let res: Response
  try {
    res = await run.sim.fetch(`${host}${spec.path}${query}`, { method, headers, ...(body === undefined ? {} : { body }) })
  } catch (error) {
    if (!(error instanceof TypeError)) throw error
    const { source: _, ...rest } = base
    run.requests.push({ ...rest, status: 0, outcome: '0 network_error', source })
    return { status: 0, body: null, headers: new Headers() }
  }
  const json = parse(await res.text())
  recordAnswer(run, base, res, json)
  if (res.status < 300) noteSecrets(run, json)
  return { status: res.status, body: json, headers: res.headers }
}
