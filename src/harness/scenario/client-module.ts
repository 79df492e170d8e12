import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ScenarioClient } from './client.js'
import { referenceClient } from './reference-client.js'

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
