import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ScenarioClient } from './client.js'
import { importUserModule } from './import-user-module.js'
import { referenceClient } from './reference-client.js'

/**
 * Loads a client module: `export const actions = {...}` and/or `export function receiver(ctx)`,
 * or a default export of that shape. TypeScript modules load through the optional tsx (see importUserModule).
 *
 * @example
 * const client = await loadClientModule('./my-client.ts', process.cwd())
 */
export async function loadClientModule(spec: string, baseDir: string): Promise<ScenarioClient> {
  if (spec === 'reference') return referenceClient
  const url = pathToFileURL(resolve(baseDir, spec)).href
  const mod = await importUserModule(url, spec)
  const candidate = (mod.default && typeof mod.default === 'object' ? mod.default : mod) as ScenarioClient
  // `client`: the client under test of a billing flow scenario (`harness.flow`).
  const subjects = candidate as { reporter?: unknown; webhook?: unknown; client?: unknown }
  if (
    candidate.actions === undefined &&
    typeof candidate.receiver !== 'function' &&
    typeof subjects.reporter !== 'function' &&
    typeof subjects.webhook !== 'function' &&
    typeof subjects.client !== 'function'
  ) {
    throw new TypeError(`client module '${spec}' exports none of 'actions', 'receiver', 'reporter', 'webhook', 'client'`)
  }
  return candidate
}
