import { importOptional } from '../optional-package.js'

/** Node strips TypeScript types itself from 22.18 / 23.6 on; `process.features.typescript` says so. */
function nodeStripsTypes(): boolean {
  const features = process.features as { typescript?: unknown }
  return features.typescript === 'strip' || features.typescript === 'transform'
}

/**
 * Imports a user's module by file URL. A TypeScript module (`.ts`, `.mts`, `.cts`) loads through
 * tsx, an optional peer: the built package runs without it, and only a TypeScript client needs
 * it. Without tsx, a node that strips types itself imports the file directly; any other node gets
 * a message with the install line.
 *
 * @example
 * const mod = await importUserModule(pathToFileURL('my-client.ts').href, './my-client.ts')
 */
export async function importUserModule(url: string, spec: string): Promise<Record<string, unknown>> {
  if (!/\.[cm]?ts$/.test(spec)) return (await import(url)) as Record<string, unknown>
  const purpose = `loading the TypeScript module '${spec}'`
  try {
    const tsx = await importOptional('tsx', () => import('tsx/esm/api'), purpose)
    return (await tsx.tsImport(url, import.meta.url)) as Record<string, unknown>
  } catch (error) {
    if (error instanceof Error && error.name === 'MissingOptionalPackageError' && nodeStripsTypes())
      return (await import(url)) as Record<string, unknown>
    throw error
  }
}
