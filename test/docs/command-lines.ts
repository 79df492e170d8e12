import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { root } from './shipped-docs.js'

/** A command line or an HTTP call a doc tells the reader to type, with where it is. */
export interface DocLine {
  readonly doc: string
  readonly line: number
  readonly text: string
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length
}

/** The lines of a doc's ```sh blocks (continuations joined, comments dropped) and its inline `service-sim ...` spans. */
export function commandLines(doc: string, text: string): DocLine[] {
  const found: DocLine[] = []
  for (const block of text.matchAll(/```(?:sh|bash|shell)\n([\s\S]*?)```/g)) {
    const start = lineOf(text, block.index) + 1
    let pending = ''
    let at = start
    ;(block[1] ?? '').split('\n').forEach((raw, i) => {
      if (pending === '') at = start + i
      const line = raw.replace(/(^|\s)#.*$/, '').trimEnd()
      if (line.endsWith('\\')) pending += `${line.slice(0, -1)} `
      else {
        const whole = `${pending}${line}`.trim()
        pending = ''
        if (whole !== '') found.push({ doc, line: at, text: whole })
      }
    })
  }
  for (const m of text.matchAll(/`((?:npx )?service-sim [^`]+)`/g))
    found.push({ doc, line: lineOf(text, m.index), text: (m[1] ?? '').replace(/\s+/g, ' ') })
  return found
}

/** `METHOD /__sim/...` spans of a doc's prose: admin calls named without curl. */
export function adminCallsInProse(doc: string, text: string): DocLine[] {
  return [...text.matchAll(/`(GET|POST|PUT|PATCH|DELETE) (\/__sim\/[^`\s]*)`/g)].map((m) => ({
    doc,
    line: lineOf(text, m.index),
    text: `${m[1]} ${m[2]}`,
  }))
}

/** The commands `service-sim --help` lists, each with its own `--help` text. */
export function cliHelp(): Map<string, string> {
  const bin = join(root, 'bin', 'service-sim.js')
  const run = (args: string[]) => execFileSync(process.execPath, [bin, ...args], { cwd: root, encoding: 'utf8' })
  const main = run(['--help'])
  const commands = [...(main.split('Commands:')[1] ?? '').split('\n\n')[0]!.matchAll(/^ {2}([a-z]+)/gm)].map((m) => m[1]!)
  return new Map(commands.map((c) => [c, run([c, '--help'])]))
}

/** Why a `service-sim` command line is not one the CLI takes, or null when it is. */
export function cliProblem(segment: string, help: Map<string, string>): string | null {
  const words = segment.replace(/^npx /, '').split(/\s+/)
  const command = words[1] ?? ''
  // `service-sim <command>` names the form, not a command.
  if (command.startsWith('<')) return null
  if (command.startsWith('-')) return command === '--help' || command === '-h' ? null : `no command before ${command}`
  const text = help.get(command)
  if (text === undefined) return `'${command}' is not a command (${[...help.keys()].join(', ')})`
  const unknown = words
    .slice(2)
    .map((w) => w.replace(/=.*$/, ''))
    .filter((w) => /^--[a-z]/.test(w) && !new RegExp(`(^|[\\s,|\\[])${w}(?![\\w-])`).test(text))
  return unknown.length === 0 ? null : `${command} has no ${unknown.join(', ')} (see service-sim ${command} --help)`
}

interface AdminApi {
  readonly routes: { readonly method: string; readonly path: RegExp; readonly spelled: string }[]
}

/** The admin API as the shipped OpenAPI document declares it. */
export function adminApi(): AdminApi {
  const doc = parse(readFileSync(join(root, 'docs', 'admin-api.openapi.yaml'), 'utf8')) as {
    paths: Record<string, Record<string, unknown>>
  }
  const routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops).map((method) => ({
      method: method.toUpperCase(),
      path: new RegExp(`^/__sim${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
      spelled: `${method.toUpperCase()} /__sim${path}`,
    })),
  )
  return { routes }
}

/** Why an admin call (method and path, placeholders as `{x}`, `<x>` or `...`) is not a route, or null. */
export function adminRouteProblem(method: string, path: string, api: AdminApi): string | null {
  const bare = path.replace(/[?#].*$/, '')
  const matching = api.routes.filter((r) => r.path.test(bare))
  if (matching.length === 0) return `no admin route ${bare}`
  return matching.some((r) => r.method === method)
    ? null
    : `${bare} takes ${matching.map((r) => r.method).join(', ')}, not ${method}`
}

/** Why a curl line would not be answered as the doc says (a route that does not exist, a missing token or key), or null. */
export function curlProblem(segment: string, api: AdminApi): string | null {
  const url = /(https?:\/\/[^\s'"]+)/.exec(segment)?.[1]
  if (url === undefined) return 'no URL'
  const { pathname } = new URL(url)
  const method = /-X\s*([A-Z]+)/.exec(segment)?.[1] ?? (/\s(-d|--data\S*)\s/.test(segment) ? 'POST' : 'GET')
  const headers = [...segment.matchAll(/-H\s*(['"])(.*?)\1/g)].map((m) => m[2] ?? '')
  if (pathname.startsWith('/__sim/')) {
    const route = adminRouteProblem(method, pathname, api)
    if (route !== null) return route
    const token = headers.some((h) => /^Authorization:\s*Bearer\s+\S+/i.test(h) || /^X-Sim-Admin-Token:\s*\S+/i.test(h))
    if (!token) return 'no admin token (Authorization: Bearer or X-Sim-Admin-Token): serve answers 401'
    const writes = method !== 'GET' && method !== 'DELETE'
    if (writes && !headers.some((h) => /^Content-Type:\s*application\/json/i.test(h)))
      return 'a write without Content-Type: application/json: serve answers 415'
    return null
  }
  if (/^\/v[12]\//.test(pathname)) {
    const key = headers.some((h) => /^Authorization:/i.test(h)) || /\s-u\s*\S+/.test(segment)
    return key ? null : 'no API key (-u or Authorization): the service answers 401'
  }
  return null
}
