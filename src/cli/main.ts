import { MissingOptionalPackageError } from '#harness/optional-package.js'
import { ScenarioError } from '#harness/scenario/scenario-error.js'
import { COMMAND_NAMES, type CommandName } from './command-flags.js'
import { HELP } from './help.js'
import { UnknownNameError, UsageError } from './usage-error.js'

type Command = (args: string[]) => Promise<number>

// Each command's code is imported when that command runs: `--help` and a mistyped command load
// only this file, the help text and the two error classes (well under 0.3 s from a cold start),
// and `serve` does not pay for the scenario runner nor `replay` for the HTTP server.
const COMMANDS: Record<CommandName, () => Promise<Command>> = {
  replay: async () => (await import('./replay-command.js')).replayCommand,
  fuzz: async () => (await import('./fuzz-command.js')).fuzzCommand,
  merge: async () => (await import('./merge-command.js')).mergeCommand,
  serve: async () => (await import('./serve-command.js')).serveCommand,
  open: async () => (await import('./open-command.js')).openCommand,
  trigger: async () => (await import('./trigger-command.js')).triggerCommand,
  scenarios: async () => (await import('./scenarios-command.js')).scenariosCommand,
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
    if (topic !== undefined && !isCommand(topic)) return refuseCommand(topic)
    process.stdout.write(HELP[topic ?? 'main'] ?? HELP.main ?? '')
    return command === undefined ? 2 : 0
  }
  if (!isCommand(command)) return refuseCommand(command)
  try {
    return await (await COMMANDS[command]())(rest)
  } catch (error) {
    if (error instanceof UnknownNameError) {
      process.stderr.write(`service-sim ${command}: ${await explain(error)}\nRun 'service-sim ${command} --help' for usage.\n`)
      return 2
    }
    if (error instanceof MissingOptionalPackageError) {
      process.stderr.write(`service-sim ${command}: ${error.message}\n`)
      return 2
    }
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

function isCommand(name: string): name is CommandName {
  return (COMMAND_NAMES as string[]).includes(name)
}

/** The refusal of an unknown name with the one meant; the matcher is loaded only when a name is wrong. */
async function explain(error: UnknownNameError): Promise<string> {
  const { closestName } = await import('#kernel/index.js')
  return error.explain(closestName(error.given, error.known))
}

async function refuseCommand(name: string): Promise<number> {
  process.stderr.write(`service-sim: ${await explain(new UnknownNameError('command', name, COMMAND_NAMES))}\n\n${HELP.main}`)
  return 2
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
