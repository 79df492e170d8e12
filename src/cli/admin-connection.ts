import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { readEnv } from './env-file.js'
import { UsageError } from './usage-error.js'

/** The variable that holds a serve's admin token: read by serve and the admin commands, written by `serve --env-file`. */
export const ADMIN_TOKEN_ENV = 'SERVICE_SIM_ADMIN_TOKEN'

/** The variable that holds a serve's address: read by the admin commands, written by `serve --env-file`. */
export const SERVE_URL_ENV = 'SERVICE_SIM_URL'

/** The address an admin command calls when nothing names one: serve's default port. */
export const DEFAULT_SERVE_URL = 'http://127.0.0.1:12111'

/** Where an admin command found the serve to call and its token. */
export interface AdminConnection {
  readonly url: string
  /** The token to send, `undefined` when none was found or it is `none`. */
  readonly token: string | undefined
  /** Where the token came from (`--admin-token`, the variable, or the env file), for messages. */
  readonly tokenFrom: string | undefined
  /** The env file read, when one was. */
  readonly envFile: string | undefined
}

/** The flags every admin command takes to reach a serve. */
export interface AdminFlags {
  readonly url?: string | undefined
  readonly 'admin-token'?: string | undefined
  readonly 'env-file'?: string | undefined
}

/** The env file's variables: `--env-file`'s (which must exist), else `./.env` when there is one. */
function envFileValues(path: string | undefined): { file: string | undefined; vars: Record<string, string> } {
  const file = path === undefined ? (existsSync('.env') ? resolve('.env') : undefined) : resolve(path)
  if (file === undefined) return { file, vars: {} }
  if (path !== undefined && !existsSync(file)) throw new UsageError(`--env-file: no such file ${path}`)
  return { file, vars: readEnv(readFileSync(file, 'utf8')) }
}

/**
 * The serve an admin command calls and the token it sends: each from its flag, else the
 * environment (`SERVICE_SIM_URL`, `SERVICE_SIM_ADMIN_TOKEN`), else the env file `serve --env-file`
 * wrote (`--env-file`, or `./.env` when present), else the default address and no token.
 *
 * @example
 * adminConnection({ 'env-file': '.env' }, process.env) // { url: 'http://127.0.0.1:12111', token: '...', ... }
 */
export function adminConnection(flags: AdminFlags, env: Readonly<Record<string, string | undefined>>): AdminConnection {
  const { file, vars } = envFileValues(flags['env-file'])
  const given = (v: string | undefined) => (v === undefined || v === '' ? undefined : v)
  const url = given(flags.url) ?? given(env[SERVE_URL_ENV]) ?? given(vars[SERVE_URL_ENV]) ?? DEFAULT_SERVE_URL
  const sources: [string | undefined, string][] = [
    [given(flags['admin-token']), '--admin-token'],
    [given(env[ADMIN_TOKEN_ENV]), ADMIN_TOKEN_ENV],
    [given(vars[ADMIN_TOKEN_ENV]), `${ADMIN_TOKEN_ENV} in ${file}`],
  ]
  const [token, tokenFrom] = sources.find(([v]) => v !== undefined) ?? [undefined, undefined]
  return { url, token: token === 'none' ? undefined : token, tokenFrom, envFile: file }
}

/**
 * What to say when serve refused the admin token: the flag, the variable and the env file to set,
 * not the HTTP headers (the command sends those).
 *
 * @example
 * process.stderr.write(tokenRefused(connection))
 */
export function tokenRefused(c: AdminConnection): string {
  const sent = c.tokenFrom === undefined ? 'no admin token was found' : `the admin token from ${c.tokenFrom} was refused`
  return `serve at ${c.url} needs its admin token and ${sent}. Give it with --admin-token T, or set ${ADMIN_TOKEN_ENV}, or point --env-file at the file 'serve --env-file' wrote (./.env is read when present); serve prints the token when it starts`
}
