import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { referenceDunningClient } from '../reference/dunning-client.js'
import { buggyDunningClients, buggyFulfilmentClients, buggySubscriptionMirrors } from '../reference/flow-variants.js'
import { referenceFulfilmentClient } from '../reference/fulfilment-client.js'
import { referenceSubscriptionMirror } from '../reference/subscription-mirror.js'
import { referenceThinEventReceiver, staleThinEventReceiver } from '../thin/thin-race-receivers.js'
import { importUserModule } from './import-user-module.js'
import { isModulePath, MissingSubjectError } from './replay-subjects.js'
import type { FlowScenarioProperty } from './scenario-types.js'

/** The bundled clients of each flow property by name: the reference, and the buggy variants. */
const BUNDLED: Readonly<Record<FlowScenarioProperty, Readonly<Record<string, unknown>>>> = {
  fulfilment: {
    reference: referenceFulfilmentClient,
    ...Object.fromEntries(buggyFulfilmentClients.map((v) => [v.name, v.factory])),
  },
  subscription_mirror: {
    reference: referenceSubscriptionMirror,
    ...Object.fromEntries(buggySubscriptionMirrors.map((v) => [v.name, v.factory])),
  },
  dunning: { reference: referenceDunningClient, ...Object.fromEntries(buggyDunningClients.map((v) => [v.name, v.factory])) },
  thin_events: {
    reference: referenceThinEventReceiver,
    stale: staleThinEventReceiver,
  },
}

/**
 * The client factory a flow scenario runs: the `--client` module's `client` export when given,
 * else the scenario's `harness.client` (`reference` by default, a bundled variant of the property
 * by name, or a module path exporting `client`, resolved from `baseDir`).
 *
 * @example
 * const factory = await flowClientOf('fulfilment', 'memory-dedupe', undefined, dirname(file))
 */
export async function flowClientOf(
  property: FlowScenarioProperty,
  named: string | undefined,
  given: unknown,
  baseDir: string,
): Promise<(env: never) => unknown> {
  const fromModule = (mod: unknown, where: string) => {
    const m = (mod ?? {}) as { client?: unknown; default?: unknown }
    const found = m.client ?? (typeof m.default === 'function' ? m.default : undefined)
    if (typeof found !== 'function') throw new MissingSubjectError(`${where} exports no \`client\` factory`)
    return found as (env: never) => unknown
  }
  if (given !== undefined && (given as { client?: unknown }).client !== undefined) return fromModule(given, 'the --client module')
  const name = named ?? 'reference'
  const bundled = BUNDLED[property][name]
  if (bundled !== undefined) return bundled as (env: never) => unknown
  if (!isModulePath(name))
    throw new MissingSubjectError(
      `the scenario names client '${name}', which is not a bundled ${property} client (${Object.keys(BUNDLED[property]).join(', ')}): pass --client <module> exporting \`client\``,
    )
  const url = name.startsWith('file:') ? name : pathToFileURL(resolve(baseDir, name)).href
  try {
    return fromModule(await importUserModule(url, name), `the scenario's client module '${name}'`)
  } catch (error) {
    if (error instanceof MissingSubjectError) throw error
    const reason = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)
    throw new MissingSubjectError(`the scenario names client module '${name}', which cannot be loaded: ${reason}`)
  }
}

/**
 * The name a flow property's bundled client goes by (`reference` or a buggy variant's), found by
 * identity: what a counterexample file names so its replay runs the same client. Undefined for a
 * client of the user's own.
 *
 * @example
 * bundledFlowClientName('dunning', referenceDunningClient) // 'reference'
 */
export function bundledFlowClientName(property: FlowScenarioProperty, factory: unknown): string | undefined {
  return Object.entries(BUNDLED[property]).find(([, bundled]) => bundled === factory)?.[0]
}
