import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** Paths that exist only on the machine a file was written on: a home folder, a build machine's work tree, an outside spec. */
export const MACHINE_PATH = /\/work\/|\/home\/|\/Users\/|shared\/spec/

/**
 * The lines of `files` (relative to `dir`) that name a machine path, as `file:line: text`.
 *
 * @example
 * machinePathLines(repo, ['README.md']) // []
 */
export function machinePathLines(dir: string, files: readonly string[]): string[] {
  return files.flatMap((file) =>
    readFileSync(join(dir, file), 'utf8')
      .split('\n')
      .flatMap((line, i) => (MACHINE_PATH.test(line) ? [`${file}:${i + 1}: ${line.trim().slice(0, 160)}`] : [])),
  )
}
