import { existsSync, readFileSync } from 'node:fs'
import { writeFileAtomically } from './atomic-write.js'

/**
 * The variables `serve --env-file` writes, under the names the provider's sample apps read.
 *
 * @example
 * const vars: ServeEnv = { STRIPE_SECRET_KEY: 'sk_test_...', STRIPE_PUBLISHABLE_KEY: 'pk_test_...' }
 */
export type ServeEnv = Readonly<Record<string, string>>

/**
 * The `.env` text with `vars` set: lines of other variables (an app's own, such as price ids or a
 * static directory) and comments stay as they were; a variable already there gets the new value
 * in place; the others are appended.
 *
 * @example
 * mergeEnv('PORT=4242\nSTRIPE_SECRET_KEY=old\n', { STRIPE_SECRET_KEY: 'sk_test_1' })
 * // 'PORT=4242\nSTRIPE_SECRET_KEY=sk_test_1\n'
 */
export function mergeEnv(text: string, vars: ServeEnv): string {
  const left = new Map(Object.entries(vars))
  const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n')
  const out = lines.map((line) => {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/.exec(line)
    const name = m?.[1]
    if (name === undefined || !left.has(name)) return line
    const value = left.get(name) as string
    left.delete(name)
    return `${name}=${value}`
  })
  for (const [name, value] of left) out.push(`${name}=${value}`)
  return `${out.join('\n')}\n`
}

/**
 * The variables a `.env` text sets (`NAME=value`, an optional `export`, quotes around the value
 * dropped); comments and other lines are skipped.
 *
 * @example
 * readEnv('# keys\nSERVICE_SIM_ADMIN_TOKEN=abc\n') // { SERVICE_SIM_ADMIN_TOKEN: 'abc' }
 */
export function readEnv(text: string): Record<string, string> {
  const vars: Record<string, string> = {}
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line)
    if (m === null) continue
    const raw = m[2] as string
    vars[m[1] as string] = /^(['"]).*\1$/.test(raw) ? raw.slice(1, -1) : raw
  }
  return vars
}

/**
 * Writes `vars` into the `.env` file at `path` (created when missing), atomically.
 *
 * @example
 * writeEnvFile('.env', { STRIPE_WEBHOOK_SECRET: 'whsec_...' })
 */
export function writeEnvFile(path: string, vars: ServeEnv): void {
  const text = existsSync(path) ? readFileSync(path, 'utf8') : ''
  writeFileAtomically(path, mergeEnv(text, vars))
}
