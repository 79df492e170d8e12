import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { basename, extname, join, resolve } from 'node:path'
import { parse } from 'yaml'
import { ScenarioError } from '#harness/scenario/scenario-error.js'
import { packageRoot } from './paths.js'

/** Where replay and fuzz reports go when no `--out`/`--report` is given (named in docs/cli.md). */
export const DEFAULT_REPORT_DIR = join('.service-sim', 'reports')

/** A scenario shipped with the package. */
export interface BundledScenario {
  /** The name to pass to `replay` and `fuzz --scenario` (the file name without its extension). */
  readonly name: string
  readonly file: string
  /** The first sentence of the scenario's description. */
  readonly summary: string
}

const SCENARIO_EXT = /\.(ya?ml|json)$/i

/**
 * The scenarios the package ships (`scenarios/*.yaml` of the package, not of the current
 * directory), by name.
 *
 * @example
 * bundledScenarios().map((s) => s.name) // ['concurrency-limits', ..., 'usage-to-invoice', ...]
 */
export function bundledScenarios(): BundledScenario[] {
  const dir = join(packageRoot(), 'scenarios')
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((f) => SCENARIO_EXT.test(f) && !f.endsWith('.schema.json'))
    .sort()
    .map((f) => {
      const file = join(dir, f)
      const doc = parse(readFileSync(file, 'utf8')) as { description?: unknown } | null
      const description = typeof doc?.description === 'string' ? doc.description.replace(/\s+/g, ' ').trim() : ''
      const summary = /^.*?[.!?](?=\s|$)/.exec(description)?.[0] ?? description
      return { name: basename(f, extname(f)), file, summary }
    })
}

/** The bundled scenario a name or a `scenarios/<name>.yaml` path means, if any. */
function bundledFor(arg: string): string | undefined {
  const bare = arg.replace(/\\/g, '/').replace(/^\.\//, '')
  const name = /^(?:scenarios\/)?([^/]+?)(?:\.(?:ya?ml|json))?$/i.exec(bare)?.[1]
  if (name === undefined) return undefined
  return bundledScenarios().find((s) => s.name === name)?.file
}

/**
 * The scenario file an argument of `replay`/`fuzz --scenario` names: the file itself when it
 * exists (relative to `cwd`), else the package's scenario of that name (`usage-to-invoice`,
 * `scenarios/usage-to-invoice.yaml`), else a `ScenarioError` listing the bundled names.
 *
 * @example
 * resolveScenarioArg('usage-to-invoice') // '<package>/scenarios/usage-to-invoice.yaml'
 */
export function resolveScenarioArg(arg: string, cwd = process.cwd()): string {
  if (existsSync(resolve(cwd, arg))) return arg
  const bundled = bundledFor(arg)
  if (bundled !== undefined) return bundled
  const names = bundledScenarios().map((s) => s.name)
  throw new ScenarioError(arg, [
    {
      path: '',
      message: `no such file, and no bundled scenario of that name (bundled: ${names.join(', ')}; 'service-sim scenarios' describes them)`,
    },
  ])
}
