/**
 * A compiled operation glob: `*` matches any run of characters, everything else is literal.
 * `specificity` ranks rows of one scope: an exact name outranks any glob, and among globs the one
 * with more literal characters wins.
 *
 * @example
 * const g = compileGlob('files.*')
 * g.test('files.create') // true
 * g.specificity          // 6
 */
export interface OperationGlob {
  readonly source: string
  readonly specificity: number
  test(operation: string): boolean
}

/**
 * Compiles one glob of the limit table.
 *
 * @example
 * compileGlob('*.search').test('customers.search') // true
 */
export function compileGlob(source: string): OperationGlob {
  let glob = compiledGlobs.get(source)
  if (glob === undefined) {
    glob = compile(source)
    compiledGlobs.set(source, glob)
  }
  return glob
}

// Globs are pure functions of their source; every simulator of a process shares them.
const compiledGlobs = new Map<string, OperationGlob>()

function compile(source: string): OperationGlob {
  if (!source.includes('*')) {
    return { source, specificity: 1_000_000 + source.length, test: (op) => op === source }
  }
  const escaped = source
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*')
  const re = new RegExp(`^${escaped}$`)
  return { source, specificity: source.replaceAll('*', '').length, test: (op) => re.test(op) }
}
