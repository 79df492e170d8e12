/**
 * A public harness function was called with input it cannot use: the message names the function
 * and the option, so a typo or a wrong type fails the test at once instead of passing silently.
 * Its own module, importing nothing: the low-level checks (`refuseArgument`, the checkers) need it
 * without loading the option schemas, whose imports reach back to them.
 *
 * @example
 * throw new HarnessInputError("checkUsageReporter: option 'numRuns' must be a positive integer")
 */
export class HarnessInputError extends TypeError {
  override readonly name = 'HarnessInputError'
}
