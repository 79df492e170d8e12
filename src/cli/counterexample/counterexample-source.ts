import { readdirSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import type { CounterexampleFile, Walkthrough } from './walkthrough.js'

/** The file names a directory of counterexamples is read for (what the harness and fuzz write). */
const SCENARIO_FILE = /\.(json|ya?ml)$/i

/**
 * The counterexamples a dashboard can open: one file, or every scenario file of a directory
 * (a property run's `scenarioDir`, newest first). A file is opened by its name only, never by a
 * path from the browser, so a page can reach nothing outside. Each is replayed once per version
 * of the file (its size and time) and the step-through kept.
 *
 * @example
 * const source = new CounterexampleSource('.service-sim/counterexamples')
 * const walk = await source.walk(source.files()[0]!.name)
 */
export class CounterexampleSource {
  readonly #dir: string
  readonly #only: string | undefined
  readonly #client: unknown
  readonly #walks = new Map<string, { version: string; walk: Promise<Walkthrough> }>()

  /** `path`: a counterexample file, or a directory of them; `client`: a `--client` module's exports. */
  constructor(path: string, client?: unknown) {
    const full = resolve(path)
    const file = statSync(full).isFile()
    this.#dir = file ? dirname(full) : full
    this.#only = file ? basename(full) : undefined
    this.#client = client
  }

  /** The directory (or the one file) as given, for the page's heading. */
  get path(): string {
    return this.#only === undefined ? this.#dir : join(this.#dir, this.#only)
  }

  /**
   * The files that can be opened, newest first (by the time they were written, then by name).
   *
   * @example
   * source.files()[0]?.name // 'no-dedup-0.json'
   */
  files(): CounterexampleFile[] {
    const names = this.#only === undefined ? readdirSync(this.#dir).filter((n) => SCENARIO_FILE.test(n)) : [this.#only]
    const files: (CounterexampleFile & { ms: number })[] = []
    for (const name of names) {
      try {
        const stat = statSync(join(this.#dir, name))
        if (stat.isFile()) files.push({ name, size: stat.size, modified: stat.mtime.toISOString(), ms: stat.mtimeMs })
      } catch {
        // Removed since the directory was read.
      }
    }
    files.sort((a, b) => b.ms - a.ms || a.name.localeCompare(b.name))
    return files.map(({ name, size, modified }) => ({ name, size, modified }))
  }

  /**
   * The step-through of the file `name` (one of `files()`), replayed on first asking and again
   * when the file changed; undefined for a name that is not one of them.
   *
   * @example
   * const walk = await source.walk('no-dedup-0.json')
   */
  walk(name: string): Promise<Walkthrough> | undefined {
    const file = this.files().find((f) => f.name === name)
    if (file === undefined) return undefined
    const version = `${file.size} ${file.modified}`
    const known = this.#walks.get(name)
    if (known !== undefined && known.version === version) return known.walk
    // The scenario runner is loaded on the first opening: serve does not pay for it otherwise.
    const walk = import('./replay-walkthrough.js').then(({ replayWalkthrough }) =>
      replayWalkthrough(join(this.#dir, name), this.#client),
    )
    // A failed replay is not kept: the next asking tries again (the file may be fixed by then).
    walk.catch(() => this.#walks.delete(name))
    this.#walks.set(name, { version, walk })
    return walk
  }
}
