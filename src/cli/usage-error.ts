/**
 * A mistake in how the CLI was called: printed with the command's usage line, exit code 2.
 *
 * @example
 * throw new UsageError('replay: expected a scenario file')
 */
export class UsageError extends Error {
  override readonly name = 'UsageError'
}

/**
 * Parses a non-negative integer option, or throws a UsageError naming the option.
 *
 * @example
 * intOption('--runs', '100') // 100
 */
export function intOption(name: string, value: string | undefined, min = 0): number | undefined {
  if (value === undefined) return undefined
  // Beyond 2^53 Number() rounds silently, and a rounded seed would replay another run.
  if (!/^-?\d+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value)))
    throw new UsageError(`${name}: expected an integer >= ${min} and <= ${Number.MAX_SAFE_INTEGER}, got '${value}'`)
  return Number(value)
}

/**
 * A name the CLI does not know: a command, a flag, or a value outside a flag's closed set. It
 * carries the names known, so the one place that prints refusals (the CLI's `main`) adds the one
 * meant ("did you mean") or lists them.
 *
 * @example
 * throw new UnknownNameError('command', 'replya', ['replay', 'fuzz'])
 */
export class UnknownNameError extends UsageError {
  constructor(
    readonly kind: string,
    readonly given: string,
    readonly known: readonly string[],
  ) {
    super(`unknown ${kind} '${given}'`)
  }

  /**
   * The message with the name meant (`near`, when one is close), else the names known when they
   * are few.
   *
   * @example
   * new UnknownNameError('command', 'replya', ['replay']).explain('replay') // "unknown command 'replya'; did you mean 'replay'?"
   */
  explain(near: string | undefined): string {
    if (near !== undefined) return `${this.message}; did you mean '${near}'?`
    return this.known.length <= 12
      ? `${this.message}; expected one of ${this.known.map((k) => `'${k}'`).join(', ')}`
      : this.message
  }
}

/** The header prefixes the CLI takes: the official clients' names and the seed's. */
export const HEADER_PREFIXES = ['Stripe', 'Service'] as const

/**
 * Parses `--header-prefix`: `Stripe` (the official clients' names) or `Service` (the seed's),
 * exactly as written; anything else is an {@link UnknownNameError}, so a misspelling such as `Strpe` is
 * never taken for a prefix of its own.
 *
 * @example
 * headerPrefixOption('Stripe') // 'Stripe'
 */
export function headerPrefixOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const known = HEADER_PREFIXES.find((p) => p === value)
  if (known === undefined) throw new UnknownNameError('--header-prefix value', value, HEADER_PREFIXES)
  return known
}
