import type { FaultsInput } from '#faults/index.js'
import type { DunningCheckOptions } from '../checkers/dunning-checker.js'
import type { MirrorCheckOptions } from '../checkers/subscription-mirror-checker.js'
import type { DunningClientFactory } from '../flows/dunning-subject.js'
import { dunningSubject } from '../flows/dunning-subject.js'
import type { FlowProgram } from '../flows/flow-program.js'
import { type FlowSubject, runFlowProgram } from '../flows/flow-run.js'
import { type FulfilmentClientFactory, type FulfilmentSubjectOptions, fulfilmentSubject } from '../flows/fulfilment-subject.js'
import { mirrorSubject, type SubscriptionMirrorFactory } from '../flows/mirror-subject.js'
import type { Program } from '../run/program.js'
import { executeProgram } from '../run/run-program.js'
import type { SimulatorChoice } from '../run/simulator-choice.js'
import type { UsageReporterFactory, WebhookReceiverFactory } from '../subjects.js'
import type { ThinRaceProgram } from '../thin/thin-race-program.js'
import { runThinRace, type ThinEventReceiverFactory } from '../thin/thin-race-run.js'
import type { RunVerdict } from './parallel-runs.js'

/**
 * What a worker thread needs to run a check's programs itself, as plain data: which property
 * (its subject kind and the subject's own options) and the runs' simulator choice and fault rates
 * (and whether Web Crypto answers at once in its runs, held in the worker's own global).
 * The factory travels apart, as a reference a worker imports.
 *
 * @example
 * const recipe: SubjectRecipe = { api: 'checkDunning', subject: { kind: 'dunning' }, run: { headerPrefix: 'Stripe' } }
 */
export interface SubjectRecipe {
  readonly api: string
  /** The property, by its subject's kind, with the subject's own options. */
  readonly subject:
    | { readonly kind: 'mirror'; readonly check: MirrorCheckOptions }
    | { readonly kind: 'dunning'; readonly options?: DunningCheckOptions }
    | { readonly kind: 'fulfilment'; readonly options: FulfilmentSubjectOptions }
    | { readonly kind: 'usage' }
    | { readonly kind: 'webhook' }
    | { readonly kind: 'thin' }
  /** The runs' simulator choice (without `base`) and fault rates. */
  readonly run: Omit<SimulatorChoice, 'base'> & {
    readonly faults?: Omit<FaultsInput, 'schedule'>
    readonly deterministicCrypto?: boolean | undefined
  }
}

type AnyFactory = (...args: never[]) => unknown

function flowSubjectOf(recipe: SubjectRecipe, factory: AnyFactory): () => FlowSubject {
  const { api, subject } = recipe
  switch (subject.kind) {
    case 'mirror':
      return () => mirrorSubject(factory as SubscriptionMirrorFactory, subject.check, api)
    case 'dunning':
      return () => dunningSubject(factory as DunningClientFactory, api, subject.options)
    case 'fulfilment':
      return () => fulfilmentSubject(factory as FulfilmentClientFactory, api, subject.options)
    default:
      throw new TypeError(`not a flow subject: ${subject.kind}`)
  }
}

/**
 * The property's predicate over one program, made from a recipe and the factory: true when the
 * run found no violation (it throws where the check's own run throws). The same run the calling
 * thread makes, so a worker's answer is the answer.
 *
 * @example
 * const holds = recipePredicate({ api: 'checkDunning', subject: { kind: 'dunning' }, run: {} }, referenceDunningClient)
 * await holds(program) // true
 */
export function recipePredicate(recipe: SubjectRecipe, factory: AnyFactory): (program: unknown) => Promise<RunVerdict> {
  const kind = recipe.subject.kind
  if (kind === 'thin')
    return async (p) => (await runThinRace(p as ThinRaceProgram, factory as ThinEventReceiverFactory)).violations.length === 0
  if (kind === 'usage' || kind === 'webhook') {
    const subjects =
      kind === 'usage' ? { reporter: factory as UsageReporterFactory } : { webhook: factory as WebhookReceiverFactory }
    const run = { ...subjects, ...recipe.run }
    return async (p) => (await executeProgram(recipe.api, p as Program, run)).violations.length === 0
  }
  const subject = flowSubjectOf(recipe, factory)
  return async (p) => {
    const report = await runFlowProgram(p as FlowProgram, subject(), recipe.run)
    return { ok: report.violations.length === 0, coverage: report.coverage }
  }
}
