import type { FaultsInput } from '#faults/index.js'
import { bundledFlowClientName } from '../scenario/flow-scenario-clients.js'
import type { FlowScenarioProperty } from '../scenario/scenario-types.js'
import type { ScenarioInput } from '../scenario/schema.js'
import type { RemoteSubject } from '../workers/parallel-runs.js'
import type { FlowProgram } from './flow-program.js'

/** The scenario's `harness.flow` of a check's subject kind; a rule set has none (its rules are code). */
const PROPERTY_OF: Readonly<Record<string, Exclude<FlowScenarioProperty, 'thin_events'>>> = {
  mirror: 'subscription_mirror',
  fulfilment: 'fulfilment',
  dunning: 'dunning',
}

// The property's own options decide its verdicts as much as the program does: a file that left
// them out would replay an app with a promised grace against the default policy.
function optionsOf(subject: RemoteSubject['subject'] | undefined): { options?: Record<string, unknown> } {
  const options =
    subject?.kind === 'mirror'
      ? subject.check
      : subject?.kind === 'fulfilment' || subject?.kind === 'dunning'
        ? subject.options
        : undefined
  return options === undefined || Object.keys(options).length === 0
    ? {}
    : { options: structuredClone(options) as Record<string, unknown> }
}

/** What a flow counterexample's file says besides its program. */
export interface FlowScenarioMeta {
  /** The check's subject (its kind and factory), as `checkFlows` is given it. */
  readonly remote: RemoteSubject | undefined
  /** Name of the client, for the file's name and for `harness.client` when it is not a bundled one. */
  readonly name?: string | undefined
  readonly faults?: Omit<FaultsInput, 'schedule'> | undefined
  readonly traceHash: string
  readonly headerPrefix?: string | undefined
  readonly apiVersion?: string | undefined
  /** The check's `deterministicCrypto`: a run with the real Web Crypto is replayed with it. */
  readonly deterministicCrypto?: boolean | undefined
}

/**
 * The scenario file (the format of `scenarios/scenario.schema.json`) of a failing billing flow
 * program: `harness.flow` names the property, `harness.client` the bundled client it ran (the
 * reference or a buggy variant, found by identity) or the name given, which a replay asks a
 * `--client` module for; each step a `client` action with its fields as `args`, or an `advance`;
 * the faults' rates and schedule; `deterministic_crypto: false` when the check left Web Crypto
 * real; the trace hash in the description, which a replay checks.
 * Undefined for a check whose subject a file cannot name (a rule set).
 *
 * @example
 * const scenario = flowScenarioOf(program, { remote: { factory, subject: { kind: 'dunning' } }, traceHash })
 */
export function flowScenarioOf(program: FlowProgram, meta: FlowScenarioMeta): ScenarioInput | undefined {
  const property = PROPERTY_OF[meta.remote?.subject.kind ?? '']
  if (property === undefined) return undefined
  const bundled = bundledFlowClientName(property, meta.remote?.factory)
  const client = bundled ?? meta.name ?? 'your-client'
  const name = meta.name ?? (bundled === undefined || bundled === 'reference' ? property : bundled)
  return {
    name: name.replace(/[^A-Za-z0-9_-]/g, '-').replace(/^[^A-Za-z]/, 'x'),
    description: `Counterexample found by the ${property} property against '${client}'. Replays to trace hash ${meta.traceHash}.`,
    seed: program.seed,
    ...(meta.headerPrefix === undefined ? {} : { header_prefix: meta.headerPrefix }),
    ...(meta.apiVersion === undefined ? {} : { api_version: meta.apiVersion }),
    harness: {
      flow: property,
      client,
      ...(program.everyEvent === true ? { every_event: true } : {}),
      // Written only when off, so a file of the default run reads as before.
      ...(meta.deterministicCrypto === false ? { deterministic_crypto: false } : {}),
      ...optionsOf(meta.remote?.subject),
    },
    workload: program.steps.map((step) => {
      if (step.kind === 'advance') return { advance: step.ms }
      const { kind, ...args } = step
      return { client: { action: kind, ...(Object.keys(args).length === 0 ? {} : { args }) } }
    }),
    faults: { ...(meta.faults ?? {}), schedule: program.faults.map((f) => ({ ...f })) } as ScenarioInput['faults'],
  }
}
