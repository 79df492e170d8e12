import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import qs from 'qs'
import { ACCOUNT_ID_PREFIX, SIGNING_SECRET_PREFIX } from '#catalogue/rules.js'
import { formatDuration } from '#kernel/duration.js'
import type { TraceEntry } from '#kernel/trace.js'
import { deliveryTraceKinds } from '#kernel/trace-kinds.js'
import { verifySignature } from '../../domain/delivery/signature.js'
import { headerNames } from '../../index.js'
import { createSimulator, type Simulator, type SimulatorOptions } from '../../simulator/create-simulator.js'
import { createEngine, StepError } from '../run/engine.js'
import { type CheckContext, checkers } from './checkers.js'
import type { ClientContext, ClientRequest, ClientResponse, ScenarioClient } from './client.js'
import { checkOutcomes, evaluateExpectations } from './expectations.js'
import { referenceClient } from './reference-client.js'
import type { DeliveryRecord, FaultDecision, Marker, RequestRecord, RunResult, StepRecord, Verdict } from './run-result.js'
import { faultsFiredVerdict } from './scenario-faults.js'
import type { RequestSpec, Scenario, StepSpec } from './schema.js'
import { fill } from './template.js'

/** How to run a scenario. */
export interface ScenarioRunOptions {
  /** Overrides the scenario's seed. */
  seed?: number | string
  /** The client under test (actions and receivers); default the reference client. */
  client?: ScenarioClient
  /** Directory that module paths in the scenario are relative to. */
  baseDir?: string
  /** Called after every executed step (the CLI prints the timeline from it). */
  onStep?: (step: StepRecord, requests: readonly RequestRecord[], faults: readonly FaultDecision[]) => void
  /** Gets the run's whole trace at the end (the report reads delivery attempts from it). */
  onTrace?: (entries: readonly TraceEntry[]) => void
}

/** @deprecated Use `ScenarioRunOptions` (the same type; `HarnessRunOptions` is what `runProgram` and `assertRun` take). */
export type RunOptions = ScenarioRunOptions

const API = 'https://api.service.test'
const METER_EVENTS = 'https://meter-events.service.test'

/**
 * Loads a client module: `export const actions = {...}` and/or `export function receiver(ctx)`,
 * or a default export of that shape. TypeScript modules load when running under tsx.
 *
 * @example
 * const client = await loadClientModule('./my-client.ts', process.cwd())
 */
export async function loadClientModule(spec: string, baseDir: string): Promise<ScenarioClient> {
  if (spec === 'reference') return referenceClient
  const url = pathToFileURL(resolve(baseDir, spec)).href
  // TypeScript modules go through tsx's tsImport, which works whether or not a loader is registered.
  const mod = (
    /\.[cm]?ts$/.test(spec) ? await (await import('tsx/esm/api')).tsImport(url, import.meta.url) : await import(url)
  ) as Record<string, unknown>
  const candidate = (mod.default && typeof mod.default === 'object' ? mod.default : mod) as ScenarioClient
  const subjects = candidate as { reporter?: unknown; webhook?: unknown }
  if (
    candidate.actions === undefined &&
    typeof candidate.receiver !== 'function' &&
    typeof subjects.reporter !== 'function' &&
    typeof subjects.webhook !== 'function'
  ) {
    throw new TypeError(`client module '${spec}' exports none of 'actions', 'receiver', 'reporter', 'webhook'`)
  }
  return candidate
}

class StepFailure extends Error {}

/**
 * Runs a scenario against a fresh simulator through its public surface (`sim.fetch`, `sim.admin`,
 * `sim.receivers`, `sim.clock`) and returns what happened and every verdict. Deterministic: the
 * same scenario, seed and client give the same result and trace hash in any process.
 *
 * @example
 * const result = await runScenario(loadScenarioFile('scenarios/hello.yaml'))
 * result.ok // every expectation held
 */
export async function runScenario(scenario: Scenario, options: RunOptions = {}): Promise<RunResult> {
  const run = await execute(scenario, options)
  return run.result
}

/**
 * Like `runScenario`, and also hands back the simulator in its final state (serve mode keeps
 * serving it).
 *
 * @example
 * const { sim, result } = await runScenarioOn(scenario)
 */
export function runScenarioOn(scenario: Scenario, options: RunOptions = {}): Promise<{ result: RunResult; sim: Simulator }> {
  return execute(scenario, options)
}

async function execute(scenario: Scenario, options: RunOptions): Promise<{ result: RunResult; sim: Simulator }> {
  const seed = options.seed ?? scenario.seed
  const baseDir = options.baseDir ?? process.cwd()
  const client = options.client ?? referenceClient
  const sim = createSimulator({
    seed,
    ...(scenario.start ? { start: scenario.start } : {}),
    ...(scenario.header_prefix ? { headerPrefix: scenario.header_prefix } : {}),
    ...(scenario.api_version ? { apiVersion: scenario.api_version } : {}),
    ...(scenario.service_time ? { serviceTime: scenario.service_time } : {}),
    ...(scenario.limits === undefined ? {} : { limits: scenario.limits as SimulatorOptions['limits'] }),
    // The fault engine applies the policy and the schedule; the runner moves it step by step.
    faults: scenario.faults,
  })
  const prefix = sim.service.kernel.prefix
  const start = sim.clock.now
  const clientRng = sim.service.kernel.rng.stream('harness.client')
  const vars: Record<string, unknown> = { platform: { id: sim.platform.id } }
  const accounts = new Map<string, string>([['platform', sim.platform.id]])
  const destinations = new Map<string, string>()
  const secretsByDestination = new Map<string, string[]>()
  const requests: RequestRecord[] = []
  const deliveries: DeliveryRecord[] = []
  const processed: { receiver: string; eventId: string }[] = []
  // Response headers of each request, for `expect.headers` and `expect.request_id`.
  const answers = new WeakMap<RequestRecord, { headers: Headers; body: unknown }>()
  const verdicts: Verdict[] = []
  let stepNo = 0
  let stepFirst = 0
  // The one step engine (shared with property programs): steps, fault decisions, receivers, replays.
  const engine = createEngine(sim, {
    onStep: (record, decided) => options.onStep?.(record, requests.slice(stepFirst), decided),
  })
  const takeFaults = (): FaultDecision[] => engine.takeFaults()

  const accountId = (ref: string): string => {
    const filled = String(fill(ref, vars))
    if (filled.startsWith(ACCOUNT_ID_PREFIX)) return filled
    const id = accounts.get(filled)
    if (id === undefined) throw new StepFailure(`no account named '${filled}' (known: ${[...accounts.keys()].join(', ')})`)
    return id
  }

  function noteSecrets(body: unknown): void {
    if (body === null || typeof body !== 'object') return
    const b = body as Record<string, any>
    const secret = b.webhook_endpoint?.signing_secret ?? b.secret
    if (typeof b.id === 'string' && typeof secret === 'string' && secret.startsWith(SIGNING_SECRET_PREFIX)) {
      const list = secretsByDestination.get(b.id) ?? []
      if (!list.includes(secret)) list.push(secret)
      secretsByDestination.set(b.id, list)
    }
  }

  async function send(raw: ClientRequest, source: string): Promise<ClientResponse> {
    const spec = fill(raw, vars)
    const method = spec.method ?? 'GET'
    const mode = spec.mode ?? scenario.mode
    const headers: Record<string, string> = { ...spec.headers }
    if (spec.token !== undefined) headers.Authorization = `Bearer ${spec.token}`
    else {
      const owner = sim.admin.account(accountId(spec.as ?? 'platform'))
      if (owner === undefined) throw new StepFailure(`no account '${spec.as}'`)
      headers.Authorization = `Bearer ${owner.keys.secret[mode]}`
    }
    if (spec.account !== undefined) headers[headerNames(prefix).account] = accountId(spec.account)
    if (spec.context !== undefined) headers[headerNames(prefix).context] = spec.context
    if (spec.version !== undefined) headers[headerNames(prefix).version] = spec.version
    if (spec.idempotency_key !== undefined) headers['Idempotency-Key'] = spec.idempotency_key
    const v2 = spec.path.startsWith('/v2/')
    let body: string | undefined
    if (method !== 'GET' && spec.body !== undefined) {
      body = v2 ? JSON.stringify(spec.body) : qs.stringify(spec.body, { arrayFormat: 'brackets' })
      headers['Content-Type'] = v2 ? 'application/json' : 'application/x-www-form-urlencoded'
    } else if (method === 'POST' && v2) {
      body = '{}'
      headers['Content-Type'] = 'application/json'
    }
    const query = spec.query ? `?${qs.stringify(spec.query, { arrayFormat: 'brackets' })}` : ''
    const host = spec.path.startsWith('/v2/billing/meter_event_stream') ? METER_EVENTS : API
    const at = sim.clock.now
    let res: Response
    try {
      res = await sim.fetch(`${host}${spec.path}${query}`, { method, headers, ...(body === undefined ? {} : { body }) })
    } catch (error) {
      // An indeterminate outcome (the request may have been committed): status 0 for the client.
      if (!(error instanceof TypeError)) throw error
      const rec: RequestRecord = { step: stepNo, at, method, path: spec.path, status: 0, outcome: '0 network_error', source }
      requests.push(rec)
      return { status: 0, body: null, headers: new Headers() }
    }
    const text = await res.text()
    let json: any = null
    try {
      json = text === '' ? null : JSON.parse(text)
    } catch {
      json = text
    }
    const code: string | undefined = json?.error?.code ?? undefined
    const reason = res.headers.get(headerNames(prefix).rateLimitedReason) ?? undefined
    const outcome = res.status < 300 ? String(res.status) : `${res.status}${reason || code ? ` ${reason ?? code}` : ''}`
    const rec: RequestRecord = {
      step: stepNo,
      at,
      method,
      path: spec.path,
      status: res.status,
      outcome,
      ...(code ? { code } : {}),
      ...(reason ? { reason } : {}),
      ...(res.headers.get('Request-Id') ? { requestId: res.headers.get('Request-Id') as string } : {}),
      source,
    }
    requests.push(rec)
    answers.set(rec, { headers: res.headers, body: json })
    if (res.status < 300) {
      noteSecrets(json)
    }
    return { status: res.status, body: json, headers: res.headers }
  }

  const sleep = (ms: number) => engine.advance(ms)

  const clientContext: ClientContext = {
    sim,
    vars,
    request: (r) => send(r, 'client'),
    sleep,
    random: () => clientRng.next(),
    prefix,
  }

  async function mountReceiver(r: Scenario['setup']['receivers'][number]): Promise<void> {
    const module = r.client === 'reference' ? client : await loadClientModule(r.client, baseDir)
    const factory = module.receiver ?? referenceClient.receiver
    const secrets = () => {
      const dest = r.destination === undefined ? undefined : destinations.get(r.destination)
      return dest === undefined ? [] : [...(secretsByDestination.get(dest) ?? [])]
    }
    const inner = factory?.({
      sim,
      name: r.name,
      url: r.url,
      secrets,
      prefix,
      processed: (id) => processed.push({ receiver: r.name, eventId: id }),
    })
    if (inner === undefined) throw new StepFailure(`receiver '${r.name}': no receiver factory`)
    const seen = new Map<string, number>()
    const record = (raw: string, status: number, signature: DeliveryRecord['signature'], replay = false) => {
      let eventId: string | null = null
      let type: string | null = null
      let created: number | undefined
      try {
        const parsed = JSON.parse(raw) as { id?: string; type?: string; created?: number | string }
        eventId = parsed.id ?? null
        type = parsed.type ?? null
        created =
          typeof parsed.created === 'number'
            ? parsed.created
            : typeof parsed.created === 'string'
              ? Date.parse(parsed.created) / 1000
              : undefined
      } catch {}
      const attempt = (seen.get(String(eventId)) ?? 0) + 1
      seen.set(String(eventId), attempt)
      deliveries.push({
        at: sim.clock.now,
        receiver: r.name,
        eventId,
        type,
        status,
        attempt,
        signature,
        ...(replay ? { replay } : {}),
        ...(created === undefined ? {} : { created }),
      })
    }
    engine.mount({
      name: r.name,
      url: r.url,
      handler: (req) => inner(req),
      down: r.state === 'down',
      downStatus: r.status,
      onDelivery: (d) => {
        let signature: DeliveryRecord['signature'] = 'unchecked'
        const known = secrets()
        if (!d.replay && known.length > 0) {
          try {
            verifySignature(d.raw, d.signatureHeader, known, { now: d.at })
            signature = 'valid'
          } catch {
            signature = 'invalid'
          }
        }
        record(d.raw, d.status, signature, d.replay)
      },
    })
  }

  async function setup(): Promise<void> {
    const s = scenario.setup
    for (const a of s.accounts) {
      const account = sim.admin.createAccount({
        ...(a.email ? { email: a.email } : {}),
        ...(a.country ? { country: a.country } : {}),
        ...(a.type ? { type: a.type } : {}),
        ...(a.metadata ? { metadata: a.metadata } : {}),
        ...(a.api_version ? { apiVersion: a.api_version } : {}),
      })
      accounts.set(a.name, account.id)
      vars[a.name] = { id: account.id }
    }
    for (const o of s.organisations) {
      const org = sim.admin.createOrganisation({ name: o.name, accounts: o.accounts.map(accountId) })
      vars[o.name] = { id: org.id }
    }
    for (const m of s.meters) {
      const res = await send(
        {
          method: 'POST',
          path: '/v1/billing/meters',
          as: m.account ?? 'platform',
          body: {
            display_name: m.display_name ?? m.name,
            event_name: m.event_name,
            default_aggregation: { formula: 'sum' },
            ...(m.customer_key ? { customer_mapping: { type: 'by_id', event_payload_key: m.customer_key } } : {}),
            ...(m.value_key ? { value_settings: { event_payload_key: m.value_key } } : {}),
          },
        },
        'setup',
      )
      if (res.status !== 200)
        throw new StepFailure(
          `setup.meters '${m.name}': POST /v1/billing/meters answered ${res.status} ${res.body?.error?.message ?? ''}`,
        )
      vars[m.name] = res.body
    }
    for (const d of s.destinations) {
      const res = await send(
        {
          method: 'POST',
          path: '/v2/core/event_destinations',
          as: d.account ?? 'platform',
          ...(d.mode ? { mode: d.mode } : {}),
          body: {
            name: d.name,
            type: 'webhook_endpoint',
            events_from: d.events_from,
            event_payload: d.event_payload,
            enabled_events: d.enabled_events,
            webhook_endpoint: { url: d.url },
            include: ['webhook_endpoint.signing_secret'],
            ...(d.api_version ? { snapshot_api_version: d.api_version } : {}),
          },
        },
        'setup',
      )
      if (res.status !== 200)
        throw new StepFailure(
          `setup.destinations '${d.name}': POST /v2/core/event_destinations answered ${res.status} ${res.body?.error?.message ?? ''}`,
        )
      destinations.set(d.name, res.body.id)
      vars[d.name] = res.body
    }
    for (const r of s.receivers) await mountReceiver(r)
  }

  function checkStep(step: StepSpec, mine: readonly RequestRecord[], label: string): void {
    const e = step.expect
    if (e === undefined) return
    const name = `step ${stepNo} (${label})`
    const headerOk = (r: RequestRecord) => {
      const answer = answers.get(r)
      const h = answer?.headers
      for (const [path, want] of Object.entries(e.body ?? {})) {
        let v: unknown = answer?.body
        for (const k of path.split('.'))
          v = v === null || typeof v !== 'object' || !Object.hasOwn(v, k) ? undefined : (v as Record<string, unknown>)[k]
        if (JSON.stringify(v ?? null) !== JSON.stringify(fill(want, vars) ?? null)) return false
      }
      if (e.request_id !== undefined && (h?.has('Request-Id') ?? false) !== e.request_id) return false
      for (const [name, want] of Object.entries(e.headers ?? {})) if ((h?.get(name) ?? null) !== want) return false
      return true
    }
    const bad = mine.filter(
      (r) =>
        (e.status !== undefined && !(Array.isArray(e.status) ? e.status : [e.status]).includes(r.status)) ||
        (e.code !== undefined && r.code !== e.code) ||
        (e.reason !== undefined && r.reason !== e.reason) ||
        !headerOk(r),
    )
    const checked = step.client !== undefined && mine.length > 0 ? [mine[mine.length - 1] as RequestRecord] : mine
    const failing = bad.filter((r) => checked.includes(r))
    if (
      e.status !== undefined ||
      e.code !== undefined ||
      e.reason !== undefined ||
      e.request_id !== undefined ||
      e.headers !== undefined ||
      e.body !== undefined
    ) {
      const want = [
        e.status !== undefined ? `status ${e.status}` : '',
        e.code ? `code ${e.code}` : '',
        e.reason ? `reason ${e.reason}` : '',
        e.request_id !== undefined ? (e.request_id ? 'a Request-Id' : 'no Request-Id') : '',
        ...Object.entries(e.headers ?? {}).map(([k, v]) => (v === null ? `no ${k}` : `${k}: ${v}`)),
        ...Object.entries(e.body ?? {}).map(([k, v]) => `${k} = ${JSON.stringify(v)}`),
      ]
        .filter(Boolean)
        .join(', ')
      verdicts.push(
        failing.length === 0 && checked.length > 0
          ? { name, ok: true, message: `${want}: held for ${checked.length} request(s)` }
          : {
              name,
              ok: false,
              message:
                checked.length === 0
                  ? `expected ${want}, but the step sent no request`
                  : `expected ${want}, got ${failing
                      .map((r) => `${r.outcome}${r.requestId ? '' : ' (no Request-Id)'}`)
                      .join(', ')}`,
              witness: failing.slice(0, 5),
            },
      )
    }
    if (e.outcomes) verdicts.push(...checkOutcomes(name, mine, e.outcomes))
  }

  async function runSteps(list: readonly StepSpec[]): Promise<void> {
    for (const step of list) {
      if (step.repeat) {
        for (let i = 0; i < step.repeat.times; i++) await runSteps(step.repeat.steps)
        continue
      }
      stepNo = engine.count + 1
      stepFirst = requests.length
      const kind =
        (['request', 'parallel', 'advance', 'settle', 'client', 'receiver', 'admin'] as const).find(
          (k) => step[k] !== undefined,
        ) ?? 'settle'
      try {
        await engine.run(kind, step.label ?? kind, () => act(step, kind))
      } catch (error) {
        throw new StepFailure(error instanceof Error ? error.message : String(error))
      }
    }
  }

  /** One scenario step: its action, then its `expect` on the requests it sent. */
  async function act(step: StepSpec, kind: string): Promise<string> {
    let label = step.label ?? kind
    try {
      if (step.request) {
        const r = step.request
        label = step.label ?? `${r.method ?? 'GET'} ${String(fill(r.path, vars))}${r.times ? ` x${r.times}` : ''}`
        for (let i = 0; i < (r.times ?? 1); i++) {
          const res = await send(r as RequestSpec, 'workload')
          if (r.save) vars[r.save] = res.body
        }
      } else if (step.parallel) {
        label = step.label ?? `parallel x${step.parallel.length}`
        const results = await Promise.all(step.parallel.map((r) => send(r as RequestSpec, 'workload')))
        step.parallel.forEach((r, i) => {
          if (r.save) vars[r.save] = results[i]?.body
        })
      } else if (step.advance !== undefined) {
        label = step.label ?? `advance ${formatDuration(step.advance)}`
        await engine.advance(step.advance)
      } else if (step.settle) {
        await sim.settle()
      } else if (step.client) {
        const c = step.client
        label = step.label ?? `client ${c.action}`
        const action = client.actions?.[c.action]
        if (action === undefined)
          throw new StepFailure(
            `the client has no action '${c.action}' (has: ${Object.keys(client.actions ?? {}).join(', ') || 'none'})`,
          )
        const result = await action(clientContext, fill(c.args ?? {}, vars))
        if (c.save) vars[c.save] = result
      } else if (step.receiver) {
        const r = step.receiver
        label = step.label ?? `receiver ${r.name} ${r.state}`
        const control = engine.receiver(r.name)
        if (control === undefined) throw new StepFailure(`no receiver named '${r.name}'`)
        control.set(r.state === 'down', r.status)
      } else if (step.admin) {
        const a = step.admin
        label = step.label ?? `admin ${a.call}`
        // Own methods only: a scenario naming `constructor` or `toString` must not call Object's.
        const fn = Object.hasOwn(sim.admin, a.call) ? (sim.admin as unknown as Record<string, unknown>)[a.call] : undefined
        if (typeof fn !== 'function') throw new StepFailure(`sim.admin has no method '${a.call}' in this build`)
        const args = fill(a.args ?? [], vars).map((v) => (typeof v === 'string' && accounts.has(v) ? accounts.get(v) : v))
        const result = await (fn as (...x: unknown[]) => unknown).apply(sim.admin, args)
        if (a.save) vars[a.save] = result
      }
    } catch (error) {
      const note = error instanceof Error ? error.message : String(error)
      verdicts.push({ name: `step ${stepNo} (${label})`, ok: false, message: `the step failed: ${note}` })
      throw new StepError(note, label)
    }
    checkStep(step, requests.slice(stepFirst), label)
    return label
  }

  let setupOk = true
  try {
    await setup()
  } catch (error) {
    setupOk = false
    verdicts.push({ name: 'setup', ok: false, message: error instanceof Error ? error.message : String(error) })
  }
  if (setupOk) {
    try {
      await runSteps(scenario.workload)
    } catch (error) {
      if (!(error instanceof StepFailure)) throw error
    }
    takeFaults()
    const faults = engine.faults
    const firedVerdict = faultsFiredVerdict(sim, faults)
    if (firedVerdict) verdicts.push(firedVerdict)
    verdicts.push(
      ...evaluateExpectations({
        scenario,
        sim,
        requests,
        deliveries,
        processed,
        resolveAccount: accountId,
        destinationId: (name) => destinations.get(name),
      }),
    )
    const ctx: CheckContext = {
      scenario,
      seed: String(seed),
      sim,
      requests,
      deliveries,
      rerun: async () =>
        (
          await execute(
            { ...scenario, expectations: { ...scenario.expectations, checkers: [] } },
            { ...options, onStep: undefined },
          )
        ).sim.trace.hash(),
    }
    for (const name of scenario.expectations.checkers) {
      const checker = checkers.get(name)
      verdicts.push(
        checker === undefined
          ? { name: `checker ${name}`, ok: false, message: `unknown checker; known: ${[...checkers.keys()].sort().join(', ')}` }
          : { ...(await checker(ctx)), name: `checker ${name}` },
      )
    }
  }
  const end = sim.clock.now
  const result: RunResult = {
    scenario: scenario.name,
    description: scenario.description ?? '',
    seed: String(seed),
    start,
    end,
    steps: [...engine.steps],
    requests,
    faults: [...engine.faults],
    deliveries,
    markers: markersOf(sim, end),
    verdicts,
    traceHash: sim.trace.hash(),
    traceLength: sim.trace.length,
    ok: verdicts.every((v) => v.ok),
  }
  options.onTrace?.(sim.trace.entries())
  return { result, sim }
}

function markersOf(sim: Simulator, end: number): Marker[] {
  const out: Marker[] = []
  for (const e of sim.trace.entries()) {
    if (e.kind === 'session.created' && typeof e.data.expires_at === 'number' && e.data.expires_at <= end) {
      out.push({ at: e.data.expires_at, kind: 'session expiry', detail: String(e.data.id) })
    } else if (e.kind === 'session.expired') {
      out.push({ at: e.at, kind: 'session expiry', detail: `${String(e.data.id)} (ended early)` })
    } else if (deliveryTraceKinds.has(e.kind)) {
      const d: Readonly<Record<string, unknown>> = e.data
      const detail = [d.destination ?? d.url, d.event ?? d.eventId, d.outcome ?? d.status, d.trigger]
        .filter((x) => x !== undefined)
        .join(' ')
      out.push({ at: e.at, kind: e.kind, detail })
    }
  }
  return out.sort((a, b) => a.at - b.at)
}
