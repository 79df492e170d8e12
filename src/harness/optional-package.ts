/**
 * Raised when a feature needs an optional peer package that is not installed: the message names
 * the feature and the install line, so a user is told what to do instead of seeing node's
 * module-resolution error.
 *
 * @example
 * try {
 *   await importOptional('vega', () => import('vega'), 'drawing the timeline chart')
 * } catch (error) {
 *   if (error instanceof MissingOptionalPackageError) console.log(error.message)
 * }
 */
export class MissingOptionalPackageError extends Error {
  override readonly name = 'MissingOptionalPackageError'
  constructor(
    readonly packageName: string,
    purpose: string,
  ) {
    super(`${purpose} needs the optional package '${packageName}', which is not installed: npm i -D ${packageName}`)
  }
}

/**
 * Imports an optional peer package through `load` (a literal `import()`, so bundlers and type
 * checkers see the specifier) and turns "not installed" into a {@link MissingOptionalPackageError};
 * any other failure of the import is rethrown as it is.
 *
 * @example
 * const vega = await importOptional('vega', () => import('vega'), 'drawing the timeline chart')
 */
export async function importOptional<T>(packageName: string, load: () => Promise<T>, purpose: string): Promise<T> {
  try {
    return await load()
  } catch (error) {
    const e = error as { code?: string; message?: string }
    const notFound = e.code === 'ERR_MODULE_NOT_FOUND' || e.code === 'MODULE_NOT_FOUND'
    if (notFound && (e.message ?? '').includes(`'${packageName}`)) throw new MissingOptionalPackageError(packageName, purpose)
    throw error
  }
}
