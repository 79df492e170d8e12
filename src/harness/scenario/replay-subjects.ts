import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { referenceUsageReporter } from '../reference/usage-reporter.js'
import { buggyUsageReporters, buggyWebhookReceivers } from '../reference/variants.js'
import { referenceWebhookReceiver } from '../reference/webhook-receiver.js'
import type { Program } from '../run/program.js'
import type { Subjects } from '../run/run-options.js'
import type { UsageReporterFactory, WebhookReceiverFactory } from '../subjects.js'
import { importUserModule } from './import-user-module.js'
import type { Scenario } from './schema.js'

/**
 * A module of the user's subjects: `reporter` and/or `webhook` factories (or a default export of them).
 *
 * @example
 * const module: SubjectModule = { webhook: myReceiver }
 */
export interface SubjectModule {
  readonly reporter?: UsageReporterFactory
  readonly webhook?: WebhookReceiverFactory
}

/**
 * The subjects a harness scenario cannot find by name.
 *
 * @example
 * if (error instanceof MissingSubjectError) console.error(error.message)
 */
export class MissingSubjectError extends Error {
  override readonly name = 'MissingSubjectError'
}

/**
 * A `harness` entry that names a module to import (a path), as opposed to a subject's name.
 *
 * @example
 * isModulePath('./my-client.ts') // true
 * isModulePath('memory-dedupe') // false
 */
export function isModulePath(spec: string): boolean {
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
    const mod = await importUserModule(url, spec)
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

type Kind = 'reporter' | 'webhook'

const variantsOf = (kind: Kind) => (kind === 'reporter' ? buggyUsageReporters : buggyWebhookReceivers)

/** Whether the program has steps for this kind of subject, or the scenario names one. */
function needed(kind: Kind, program: Program, named: Scenario['harness'] & object): boolean {
  if (kind === 'reporter') return program.steps.some((s) => s.kind === 'report') || named.reporter !== undefined
  return program.steps.some((s) => s.kind !== 'report' && s.kind !== 'advance') || named.webhook !== undefined
}

/** The subject's name: the scenario's `harness` entry, else its own name when that is a bundled variant. */
function nameOf(kind: Kind, scenario: Scenario, given: SubjectModule | undefined): string | undefined {
  const named = scenario.harness?.[kind]
  if (named !== undefined) return named
  if (given?.[kind] !== undefined) return undefined
  return variantsOf(kind).some((v) => v.name === scenario.name) ? scenario.name : undefined
}

/** The factory of one kind: the `--client` module's, else the one the scenario names. */
async function subjectOf(kind: Kind, scenario: Scenario, given: SubjectModule | undefined, baseDir: string) {
  const module = given?.[kind]
  if (module !== undefined) {
    if (typeof module !== 'function')
      throw new MissingSubjectError(`the --client module's \`${kind}\` export is not a factory function`)
    return module
  }
  const name = nameOf(kind, scenario, given)
  const bundled = variantsOf(kind).some((v) => v.name === name)
  if (given !== undefined && name !== 'reference' && !bundled && (name === undefined || !isModulePath(name)))
    throw new MissingSubjectError(
      `the --client module exports no \`${kind}\`${name === undefined ? '' : ` and the scenario's subject '${name}' is not a bundled reference client`}: export \`${kind}\` from it`,
    )
  if (name === undefined)
    throw new MissingSubjectError(
      `this counterexample was found against '${scenario.name}'; pass --client <module> exporting '${kind}'`,
    )
  return kind === 'reporter'
    ? await byName(name, kind, referenceUsageReporter, buggyUsageReporters, (m) => m.reporter, baseDir)
    : await byName(name, kind, referenceWebhookReceiver, buggyWebhookReceivers, (m) => m.webhook, baseDir)
}

/**
 * The subjects a counterexample replays against: those the `--client` module gives, else the ones
 * the scenario names (a bundled variant, `reference`, or a module path), for each kind its
 * program uses.
 *
 * @example
 * const subjects = await replaySubjects(scenario, program, undefined, dirname(file))
 */
export async function replaySubjects(
  scenario: Scenario,
  program: Program,
  given: SubjectModule | undefined,
  baseDir: string,
): Promise<Subjects> {
  const subjects: { reporter?: UsageReporterFactory; webhook?: WebhookReceiverFactory } = {}
  const named = scenario.harness ?? {}
  if (needed('reporter', program, named))
    subjects.reporter = (await subjectOf('reporter', scenario, given, baseDir)) as UsageReporterFactory
  if (needed('webhook', program, named))
    subjects.webhook = (await subjectOf('webhook', scenario, given, baseDir)) as WebhookReceiverFactory
  return subjects
}
