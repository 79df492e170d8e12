import { fileURLToPath } from 'node:url'

/**
 * The package root (where `scenarios/` lives), from src/cli or dist/cli alike.
 *
 * @example
 * join(packageRoot(), 'scenarios', 'default.yaml')
 */
export function packageRoot(): string {
  return fileURLToPath(new URL('../../', import.meta.url))
}
