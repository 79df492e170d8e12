import { existsSync, linkSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { Snapshot } from '#simulator/index.js'
import { writeFileAtomically } from './atomic-write.js'
import { UsageError } from './usage-error.js'

/**
 * The file beside a state file that keeps the save before the last one (`<file>.bak`).
 *
 * @example
 * backupPath('state.json') // 'state.json.bak'
 */
export function backupPath(path: string): string {
  return `${path}.bak`
}

/**
 * Writes a snapshot to `path` so that a kill or a power cut at any moment leaves a state file that
 * loads: the previous save becomes `<path>.bak` (a hard link renamed into place, so `path` itself
 * never goes missing), then the new one is written beside it, flushed to disk and renamed over it.
 *
 * @example
 * writeStateFile('state.json', sim.snapshot())
 */
export function writeStateFile(path: string, snapshot: Snapshot): void {
  const text = JSON.stringify(snapshot)
  if (existsSync(path)) keepBackup(path)
  writeFileAtomically(path, text)
}

function keepBackup(path: string): void {
  const linked = `${path}.${process.pid}.bak.tmp`
  try {
    rmSync(linked, { force: true })
    linkSync(path, linked)
    renameSync(linked, backupPath(path))
  } catch {
    // A file system without hard links: no backup this time; the atomic write still protects `path`.
    rmSync(linked, { force: true })
  }
}

/** Temporary files of saves a kill interrupted (`<file>.<pid>.tmp`, `<file>.<pid>.bak.tmp`): never loaded, removed at start. */
function removeLeftovers(path: string): void {
  const name = basename(path)
  const dir = dirname(path)
  let entries: string[]
  try {
    entries = readdirSync(dir)
  } catch {
    return
  }
  const pattern = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.\\d+\\.(bak\\.)?tmp$`)
  for (const entry of entries) if (pattern.test(entry)) rmSync(join(dir, entry), { force: true })
}

/** The state file read, or the reason it cannot be. */
function parse(path: string): Snapshot | Error {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Snapshot
  } catch (error) {
    return error as Error
  }
}

/**
 * The snapshot saved in `path` (`serve --state`), or undefined when there is no file yet. When the
 * file is missing or unreadable but `<path>.bak` (the save before) reads, that one is used and
 * `fellBack` says so; when neither reads it is a usage error (the loader checks it is a snapshot).
 *
 * @example
 * readStateFile('state.json') // { snapshot: {...}, fellBack: false } or undefined
 */
export function readStateFile(path: string): { snapshot: Snapshot; fellBack: boolean } | undefined {
  removeLeftovers(path)
  const bak = backupPath(path)
  if (!existsSync(path) && !existsSync(bak)) return undefined
  const main = existsSync(path) ? parse(path) : new Error('missing')
  if (!(main instanceof Error)) return { snapshot: main, fellBack: false }
  const previous = existsSync(bak) ? parse(bak) : undefined
  if (previous !== undefined && !(previous instanceof Error)) return { snapshot: previous, fellBack: true }
  throw new UsageError(`--state: ${path} is not a snapshot file (${main.message})`)
}
