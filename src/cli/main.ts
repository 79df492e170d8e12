import { MissingOptionalPackageError } from '#harness/optional-package.js'
import { ScenarioError } from '#harness/scenario/scenario-error.js'
import { HELP } from './help.js'
import { UsageError } from './usage-error.js'

type Command = (args: string[]) => Promise<number>

// Each command's code is imported when that command runs: `--help` and a mistyped command load
// only this file, the help text and the two error classes (well under 0.3 s from a cold start),
// and `serve` does not pay for the scenario runner nor `replay` for the HTTP server.
const COMMANDS: Record<string, () => Promise<Command>> = {
  replay: async () => (await import('./replay-command.js')).replayCommand,
  fuzz: async () => (await import('./fuzz-command.js')).fuzzCommand,
  merge: async () => (await import('./merge-command.js')).mergeCommand,
  serve: async () => (await import('./serve-command.js')).serveCommand,
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
    process.stdout.write(HELP[topic ?? 'main'] ?? HELP.main ?? '')
    return command === undefined ? 2 : 0
  }
  const load = COMMANDS[command]
  if (load === undefined) {
    process.stderr.write(`service-sim: unknown command '${command}'\n\n${HELP.main}`)
    return 2
  }
  try {
    return await (await load())(rest)
  } catch (error) {
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
