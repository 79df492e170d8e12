import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import type { Snapshot } from '../simulator/snapshot.js'
import { UsageError } from './usage-error.js'

/**
 * Writes a snapshot to `path` atomically: into a temporary file beside it, then renamed over it, so
 * a crash mid-write never leaves a half-written state file (the previous one stays whole).
 *
 * @example
 * writeStateFile('state.json', sim.snapshot())
 */
export function writeStateFile(path: string, snapshot: Snapshot): void {
  const tmp = `${path}.${process.pid}.tmp`
  try {
    writeFileSync(tmp, JSON.stringify(snapshot))
    renameSync(tmp, path)
  } catch (error) {
    rmSync(tmp, { force: true })
    throw error
  }
}

/**
 * The snapshot saved in `path` (`serve --state`), or undefined when there is no file yet; a file
 * that is not JSON is a usage error (the loader checks it is a snapshot).
 */
export function readStateFile(path: string): Snapshot | undefined {
  if (!existsSync(path)) return undefined
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Snapshot
  } catch (error) {
    throw new UsageError(`--state: ${path} is not a snapshot file (${(error as Error).message})`)
  }
}
