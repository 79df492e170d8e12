import { relative } from 'node:path'
import { bundledScenarios } from './bundled-scenarios.js'
import { parseCommandArgs } from './command-flags.js'
import { HELP } from './help.js'
import { UsageError } from './usage-error.js'

/**
 * `service-sim scenarios`: lists the bundled scenarios, each with its name (what `replay` and
 * `fuzz --scenario` take) and the first sentence of its description.
 *
 * @example
 * const code = await scenariosCommand([])
 */
export async function scenariosCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('scenarios', args)
  if (values.help) {
    process.stdout.write(HELP.scenarios ?? '')
    return 0
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`)
  const list = bundledScenarios()
  const width = Math.max(0, ...list.map((s) => s.name.length))
  for (const s of list) process.stdout.write(`${s.name.padEnd(width)}  ${s.summary}\n`)
  const where = relative(process.cwd(), list[0]?.file ?? '.')
  process.stdout.write(
    `\nReplay one by name: service-sim replay <name> (a local file of that name wins); the files are in ${where.replace(/[^/\\]+$/, '')}\n`,
  )
  return 0
}
