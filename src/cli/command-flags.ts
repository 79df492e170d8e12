import { parseArgs } from 'node:util'
import { HEADER_PREFIXES, UnknownNameError, UsageError } from './usage-error.js'

/**
 * What a flag's value must be, checked before the command sees it: `integer` a non-negative safe
 * integer, `choices` one of a closed set (a near miss is refused with the one meant).
 */
export interface FlagSpec {
  readonly type: 'string' | 'boolean'
  readonly short?: string
  readonly multiple?: boolean
  readonly integer?: true
  readonly choices?: readonly string[]
}

const help = { type: 'boolean', short: 'h' } as const
const text = { type: 'string' } as const
const integer = { type: 'string', integer: true } as const
const on = { type: 'boolean' } as const
const prefix = { type: 'string', choices: HEADER_PREFIXES } as const

/**
 * Every command of the CLI and every flag it declares: the one table the commands parse their
 * arguments from, so an unknown command, an unknown flag and a value outside a closed set are
 * refused the same way everywhere, with the name meant.
 *
 * @example
 * Object.keys(COMMAND_FLAGS) // ['replay', 'fuzz', 'merge', 'serve', 'open', 'trigger', 'scenarios']
 */
export const COMMAND_FLAGS = {
  replay: {
    seed: integer,
    'header-prefix': prefix,
    client: text,
    report: text,
    out: { type: 'string', short: 'o' },
    'no-report': on,
    quiet: { type: 'boolean', short: 'q' },
    served: text,
    help,
  },
  fuzz: {
    scenario: text,
    runs: integer,
    time: text,
    seed: integer,
    workers: integer,
    shard: text,
    client: text,
    'header-prefix': prefix,
    report: text,
    out: { type: 'string', short: 'o' },
    failures: text,
    help,
  },
  merge: { out: text, help },
  serve: {
    port: integer,
    seed: integer,
    scenario: text,
    'no-limits': on,
    'admin-token': text,
    'allowed-host': { type: 'string', multiple: true },
    'header-prefix': prefix,
    'api-version': text,
    clock: { type: 'string', choices: ['wall', 'manual'] },
    speed: text,
    'forward-to': text,
    events: text,
    'forward-thin-to': text,
    'thin-events': text,
    'forward-connect-to': text,
    'env-file': text,
    fixtures: { type: 'string', multiple: true },
    state: text,
    record: text,
    counterexamples: text,
    help,
  },
  open: {
    port: integer,
    'admin-token': text,
    'allowed-host': { type: 'string', multiple: true },
    client: text,
    help,
  },
  trigger: { url: text, 'admin-token': text, 'env-file': text, account: text, list: on, help },
  scenarios: { help },
} as const satisfies Record<string, Record<string, FlagSpec>>

/** A command of the CLI. */
export type CommandName = keyof typeof COMMAND_FLAGS

/**
 * The commands, in the order help lists them.
 *
 * @example
 * COMMAND_NAMES.includes('serve') // true
 */
export const COMMAND_NAMES = Object.keys(COMMAND_FLAGS) as CommandName[]

type Flags<C extends CommandName> = (typeof COMMAND_FLAGS)[C]
type Parsed<C extends CommandName> = ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: Flags<C> }>>

/** The flags as node's `parseArgs` takes them (it knows no value kinds). */
function nodeOptions(flags: Record<string, FlagSpec>) {
  return Object.fromEntries(
    Object.entries(flags).map(([name, f]) => [
      name,
      { type: f.type, ...(f.short === undefined ? {} : { short: f.short }), ...(f.multiple ? { multiple: true } : {}) },
    ]),
  )
}

/** Checks the values of the flags that declare a kind. */
function checkValues(flags: Record<string, FlagSpec>, values: Record<string, unknown>): void {
  for (const [name, spec] of Object.entries(flags)) {
    const value = values[name]
    if (typeof value !== 'string') continue
    if (spec.integer && (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))))
      throw new UsageError(`--${name}: expected an integer >= 0 and <= ${Number.MAX_SAFE_INTEGER}, got '${value}'`)
    if (spec.choices !== undefined && !spec.choices.includes(value))
      throw new UnknownNameError(`--${name} value`, value, spec.choices)
  }
}

/**
 * Parses `command`'s arguments against its declared flags: an unknown flag is an
 * {@link UnknownNameError} (answered with the flag meant), a string flag without its value and a
 * value of the wrong kind are usage errors naming the flag.
 *
 * @example
 * const { values, positionals } = parseCommandArgs('merge', ['a.json', '--out', 'm.json'])
 */
export function parseCommandArgs<C extends CommandName>(command: C, args: string[]): Parsed<C> {
  const flags: Record<string, FlagSpec> = COMMAND_FLAGS[command]
  let parsed: Parsed<C>
  try {
    parsed = parseArgs({ args, allowPositionals: true, strict: true, options: nodeOptions(flags) }) as Parsed<C>
  } catch (error) {
    const code = (error as { code?: string }).code
    const unknown = /Unknown option '([^']+)'/.exec((error as Error).message)?.[1]
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown !== undefined)
      throw new UnknownNameError(
        'option',
        unknown,
        Object.keys(flags).map((f) => `--${f}`),
      )
    const message = (error as Error).message
    const missing = /Option '(?:-\w, )?(--[\w-]+)[^']*' argument missing/.exec(message)?.[1]
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && missing !== undefined)
      throw new UsageError(`${missing}: expected a value`)
    throw new UsageError(message)
  }
  checkValues(flags, parsed.values as Record<string, unknown>)
  return parsed
}
