import { ScenarioError } from '../harness/scenario/scenario-error.js'
import { fuzzCommand } from './fuzz-command.js'
import { HELP } from './help.js'
import { mergeCommand } from './merge-command.js'
import { replayCommand } from './replay-command.js'
import { serveCommand } from './serve-command.js'
import { triggerCommand } from './trigger-command.js'
import { UsageError } from './usage-error.js'

const COMMANDS: Record<string, (args: string[]) => Promise<number>> = {
  replay: replayCommand,
  fuzz: fuzzCommand,
  merge: mergeCommand,
  serve: serveCommand,
  trigger: triggerCommand,
}

/**
 * Runs the CLI with `argv` (without node and script) and returns the exit code: 0 success, 1 an
 * expectation violated, 2 usage or scenario error. Errors are printed as one message, no stack.
 *
 * @example
 * process.exitCode = await main(['replay', 'scenarios/default.yaml'])
 */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    const topic = command === 'help' ? rest[0] : undefined
    process.stdout.write(HELP[topic ?? 'main'] ?? HELP.main ?? '')
    return command === undefined ? 2 : 0
  }
  const run = COMMANDS[command]
  if (run === undefined) {
    process.stderr.write(`service-sim: unknown command '${command}'\n\n${HELP.main}`)
    return 2
  }
  try {
    return await run(rest)
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`service-sim ${command}: ${error.message}\nRun 'service-sim ${command} --help' for usage.\n`)
      return 2
    }
    if (error instanceof ScenarioError) {
      process.stderr.write(`service-sim ${command}: invalid scenario\n${error.message}\n`)
      return 2
    }
    if (error instanceof Error && (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`service-sim ${command}: ${error.message}\nRun 'service-sim ${command} --help' for usage.\n`)
      return 2
    }
    throw error
  }
}

const invoked = process.argv[1] ?? ''
if (/(^|[\\/])main\.(ts|js)$/.test(invoked) || process.env.SERVICE_SIM_CLI === '1') {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code
    },
    (error: unknown) => {
      process.stderr.write(`service-sim: internal error: ${error instanceof Error ? error.message : String(error)}\n`)
      process.exitCode = 3
    },
  )
}
