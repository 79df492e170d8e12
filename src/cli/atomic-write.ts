import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'

/**
 * Writes `text` to `path` so that a crash or power cut at any moment leaves either the old file
 * or the new one, whole: the text goes to a temporary file beside it, is flushed to disk (fsync),
 * renamed over `path`, and the directory is flushed so the rename itself is durable.
 *
 * @example
 * writeFileAtomically('state.json', JSON.stringify(snapshot))
 */
export function writeFileAtomically(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`
  try {
    const fd = openSync(tmp, 'w')
    try {
      writeSync(fd, text)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(tmp, path)
  } catch (error) {
    rmSync(tmp, { force: true })
    throw error
  }
  syncDirectory(dirname(path))
}

/** Flushes a directory's entries (the rename); some platforms cannot open a directory: then nothing. */
function syncDirectory(dir: string): void {
  let fd: number | undefined
  try {
    fd = openSync(dir, 'r')
    fsyncSync(fd)
  } catch {
    // Windows cannot fsync a directory; the rename is as durable as the platform makes it.
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}
