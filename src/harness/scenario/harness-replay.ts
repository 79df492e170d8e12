import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { FaultsInput } from '#faults/fault-policy.js'
import type { TraceEntry } from '../../kernel/trace.js'
import { referenceUsageReporter } from '../reference/usage-reporter.js'
import { buggyUsageReporters, buggyWebhookReceivers } from '../reference/variants.js'
import { referenceWebhookReceiver } from '../reference/webhook-receiver.js'
import { openRun, type Subjects } from '../run/run-program.js'
import { programOf } from '../run/scenario-file.js'
import { harnessActionNames } from '../steps/program-steps.js'
import type { UsageReporterFactory, WebhookReceiverFactory } from '../subjects.js'
import { validateProgram, validateRunOptions } from '../validate-input.js'
import type { DeliveryRecord, FaultDecision, RequestRecord, RunResult, StepRecord, Verdict } from './run-result.js'
import type { Scenario } from './schema.js'

/**
 * True for a scenario written by the property harness (`writeScenarioFile`): its workload is
 * harness steps (`report_usage`, `emit_event`, `roll_secret`), replayed by `runProgram`'s engine.
 *
 * @example
 * if (isHarnessScenario(scenario)) await replayHarnessScenario(scenario, { baseDir })
 */
export function isHarnessScenario(scenario: Scenario): boolean {
  return scenario.harness !== undefined || scenario.workload.some((s) => harnessActionNames.has(s.client?.action ?? ''))
}

/** A module of the user's subjects: `reporter` and/or `webhook` factories (or a default export of them). */
export interface SubjectModule {
  readonly reporter?: UsageReporterFactory
  readonly webhook?: WebhookReceiverFactory
}

/** The subjects a harness scenario cannot find by name. */
export class MissingSubjectError extends Error {
  override readonly name = 'MissingSubjectError'
}

/** A `harness` entry that names a module to import (a path), as opposed to a subject's name. */
function isModulePath(spec: string): boolean {
  return /^(\.{1,2}[\\/]|[\\/]|[A-Za-z]:[\\/]|file:)/.test(spec) || /\.[cm]?[jt]s$/.test(spec)
}

function notBundled(name: string, kind: 'reporter' | 'webhook'): MissingSubjectError {
  const other = kind === 'webhook' ? 'reporter' : 'webhook'
  return new MissingSubjectError(
    `the scenario names subject '${name}' which is not a bundled reference client: pass --client <module> exporting \`${kind}\` (or \`${other}\`)`,
  )
}

async function importSubjects(spec: string, baseDir: string): Promise<SubjectModule> {
  const url = spec.startsWith('file:') ? spec : pathToFileURL(resolve(baseDir, spec)).href
  try {
    const mod = (
      /\.[cm]?ts$/.test(spec) ? await (await import('tsx/esm/api')).tsImport(url, import.meta.url) : await import(url)
    ) as Record<string, unknown>
    return (mod.default && typeof mod.default === 'object' ? mod.default : mod) as SubjectModule
  } catch (error) {
    const reason = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)
    throw new MissingSubjectError(`the scenario names subject module '${spec}', which cannot be loaded: ${reason}`)
  }
}

async function byName<F>(
  name: string,
  kind: 'reporter' | 'webhook',
  reference: F,
  variants: readonly { name: string; factory: F }[],
  pick: (m: SubjectModule) => F | undefined,
  baseDir: string,
): Promise<F> {
  if (name === 'reference') return reference
  const variant = variants.find((v) => v.name === name)
  if (variant) return variant.factory
  // `checkWebhookHandler(h, { name })` writes the subject's name here, not a module: only a path is imported.
  if (!isModulePath(name)) throw notBundled(name, kind)
  const found = pick(await importSubjects(name, baseDir))
  if (typeof found !== 'function')
    throw new MissingSubjectError(`the scenario's subject module '${name}' exports no \`${kind}\` factory`)
  return found
}

/** How to replay a harness scenario. */
export interface HarnessReplayOptions {
  readonly seed?: number | string | undefined
  /** The user's subjects (`--client`); otherwise the scenario's `harness` names, or its name if it is a bundled variant. */
  readonly subjects?: SubjectModule | undefined
  readonly baseDir: string
  readonly onStep?: (step: StepRecord, requests: readonly RequestRecord[], faults: readonly FaultDecision[]) => void
  /** Gets the run's whole trace at the end (the report reads delivery attempts from it). */
  readonly onTrace?: (entries: readonly TraceEntry[]) => void
}

/**
 * Replays a property-harness counterexample through the harness's own runner (`startRun`, the
 * engine of `runProgram`), so it reaches the same trace hash as the failing run, and turns the
 * run into the `RunResult` the CLI prints and reports. The checker violations become verdicts;
 * a `Replays to trace hash ...` note in the description becomes one more verdict.
 *
 * @example
 * const result = await replayHarnessScenario(loadScenarioFile(file), { baseDir: dirname(file) })
 */
export async function replayHarnessScenario(scenario: Scenario, options: HarnessReplayOptions): Promise<RunResult> {
  const parsed = programOf(scenario)
  const seed = options.seed === undefined ? parsed.program.seed : Number(options.seed)
  if (!Number.isInteger(seed))
    throw new MissingSubjectError(`--seed: a harness counterexample replays with an integer seed, got '${String(options.seed)}'`)
  const program = { ...parsed.program, seed }
  const usesReporter = program.steps.some((s) => s.kind === 'report')
  const usesWebhook = program.steps.some((s) => s.kind !== 'report' && s.kind !== 'advance')
  const named = scenario.harness ?? {}
  const subjects: { reporter?: UsageReporterFactory; webhook?: WebhookReceiverFactory } = {}
  const fallback = (kind: 'reporter' | 'webhook') =>
    named[kind] ??
    (options.subjects?.[kind] !== undefined
      ? undefined
      : (kind === 'reporter' ? buggyUsageReporters : buggyWebhookReceivers).some((v) => v.name === scenario.name)
        ? scenario.name
        : undefined)
  for (const kind of ['reporter', 'webhook'] as const) {
    const needed = kind === 'reporter' ? usesReporter || named.reporter !== undefined : usesWebhook || named.webhook !== undefined
    if (!needed) continue
    const given = options.subjects?.[kind]
    if (given !== undefined) {
      if (typeof given !== 'function')
        throw new MissingSubjectError(`the --client module's \`${kind}\` export is not a factory function`)
      ;(subjects as Record<string, unknown>)[kind] = given
      continue
    }
    const name = fallback(kind)
    const bundled = (kind === 'reporter' ? buggyUsageReporters : buggyWebhookReceivers).some((v) => v.name === name)
    if (options.subjects !== undefined && name !== 'reference' && !bundled && (name === undefined || !isModulePath(name)))
      throw new MissingSubjectError(
        `the --client module exports no \`${kind}\`${name === undefined ? '' : ` and the scenario's subject '${name}' is not a bundled reference client`}: export \`${kind}\` from it`,
      )
    if (name === undefined)
      throw new MissingSubjectError(
        `this counterexample was found against '${scenario.name}'; pass --client <module> exporting '${kind}'`,
      )
    ;(subjects as Record<string, unknown>)[kind] =
      kind === 'reporter'
        ? await byName(name, kind, referenceUsageReporter, buggyUsageReporters, (m) => m.reporter, options.baseDir)
        : await byName(name, kind, referenceWebhookReceiver, buggyWebhookReceivers, (m) => m.webhook, options.baseDir)
  }
  validateRunOptions('replay', { ...(subjects as Subjects), faults: parsed.faults })
  validateProgram('replay', program)
  // The same engine as the failing run: its step records and fault decisions are the timeline.
  const requests: RequestRecord[] = []
  let from = 0
  const run = openRun(
    'replay',
    program.seed,
    { ...(subjects as Subjects), faults: parsed.faults as Omit<FaultsInput, 'schedule'> },
    program.faults,
    {
      onStep: (record, decided) => {
        const mine: RequestRecord[] = trace
          .entries()
          .slice(from)
          .filter((e) => e.kind === 'http')
          .map((e) => ({
            step: record.n,
            at: e.at,
            method: String(e.data.method),
            path: String(e.data.path),
            status: Number(e.data.status),
            outcome: String(e.data.status),
            source: 'client',
          }))
        requests.push(...mine)
        options.onStep?.(record, mine, decided)
      },
    },
  )
  const { sim, engine } = run
  const trace = sim.service.kernel.trace
  const start = sim.clock.now
  for (const step of program.steps) {
    from = trace.length
    await run.exec(step)
  }
  const report = await run.finish()
  options.onTrace?.(trace.entries())
  engine.takeFaults()
  const faults: FaultDecision[] = [...engine.faults]
  const steps: StepRecord[] = [...engine.steps]
  // Delivery attempts are the service's own `delivery.attempt` entries: the report reads them from
  // the trace (`traceRecords`), labelled by destination. (This used to filter a `harness.delivery`
  // kind that nothing has emitted since the harness's delivery channel was removed.)
  const deliveries: DeliveryRecord[] = []
  const verdicts: Verdict[] = report.violations.map((v) => ({
    name: `checker ${v.checker}`,
    ok: false,
    message: v.message,
    witness: { seq: v.witness, entries: v.entries.slice(0, 5) },
  }))
  if (verdicts.length === 0) verdicts.push({ name: 'harness checkers', ok: true, message: 'no violation' })
  const recorded = /trace hash ([0-9a-f]{16,})/.exec(scenario.description ?? '')?.[1]
  if (recorded !== undefined && options.seed === undefined) {
    verdicts.push({
      name: 'reproduces the recorded trace hash',
      ok: recorded === report.traceHash,
      message: recorded === report.traceHash ? `trace hash ${recorded}` : `recorded ${recorded}, got ${report.traceHash}`,
    })
  }
  return {
    scenario: scenario.name,
    description: scenario.description ?? '',
    seed: String(program.seed),
    start,
    end: sim.clock.now,
    steps,
    requests,
    faults,
    deliveries,
    markers: [],
    verdicts,
    traceHash: report.traceHash,
    traceLength: trace.length,
    ok: verdicts.every((v) => v.ok),
  }
}
