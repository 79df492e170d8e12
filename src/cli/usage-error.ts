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
 * Parses `--header-prefix`: a header token (a letter, then letters and digits) such as `Service`
 * (the default) or `Stripe`, with which the official clients of any language work unchanged.
 *
 * @example
 * headerPrefixOption('Stripe') // 'Stripe'
 */
export function headerPrefixOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(value))
    throw new UsageError(`--header-prefix: expected a header token such as Service or Stripe, got '${value}'`)
  return value
}
