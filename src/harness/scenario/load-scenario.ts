import { readFileSync } from 'node:fs'
import { extname } from 'node:path'
import { isMap, isSeq, LineCounter, parseDocument } from 'yaml'
import type { z } from 'zod'
import type { FaultsInput } from '#faults/index.js'
import { checkerRegistry as knownCheckers } from '../checkers/checker-registry.js'
import { refuseArgument } from '../refuse-argument.js'
import type { Program } from '../run/program.js'
import { programOfScenario } from '../run/scenario-file.js'
import { formatPath, ScenarioError, type ScenarioIssue } from './scenario-error.js'
import { type Scenario, scenarioSchema } from './schema.js'

/**
 * Reads and validates a scenario file (`.yaml`, `.yml` or `.json`). Any problem becomes a
 * `ScenarioError` naming the file, the path inside it, the line when known, and what was expected.
 *
 * @example
 * const scenario = loadScenarioFile('node_modules/service-sim/scenarios/default.yaml')
 */
export function loadScenarioFile(file: string): Scenario {
  refuseArgument('loadScenarioFile', 'file', file, 'string')
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const message =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a directory, expected a scenario file'
          : `cannot be read (${code ?? 'error'})`
    throw new ScenarioError(file, [{ path: '', message }])
  }
  return parseScenarioText(text, file)
}

/**
 * Parses scenario text. JSON is read as YAML (a superset), so both get line numbers in errors.
 *
 * @example
 * parseScenarioText('name: hello\nworkload: []', 'inline.yaml')
 */
export function parseScenarioText(text: string, file: string): Scenario {
  if (typeof text !== 'string') refuseArgument('parseScenarioText', 'text', text, 'string')
  refuseArgument('parseScenarioText', 'file', file, 'string')
  const ext = extname(file).toLowerCase()
  if (ext !== '' && !['.yaml', '.yml', '.json'].includes(ext)) {
    throw new ScenarioError(file, [{ path: '', message: `expected a .yaml, .yml or .json file, got '${ext}'` }])
  }
  // JSON's own parser first, so a .json file gets JSON wording and the line of the mistake.
  if (ext === '.json') checkJsonSyntax(text, file)
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true })
  if (doc.errors.length > 0) {
    const issues: ScenarioIssue[] = doc.errors.map((e) => ({
      path: '',
      message: `not valid ${ext === '.json' ? 'JSON' : 'YAML'}: ${e.message.split('\n')[0]}`,
      line: e.linePos?.[0]?.line ?? (e.pos?.[0] === undefined ? undefined : lineCounter.linePos(e.pos[0]).line),
    }))
    throw new ScenarioError(file, issues)
  }
  const raw: unknown = doc.toJS()
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ScenarioError(file, [{ path: '', message: 'expected a mapping with at least `name` and `workload`' }])
  }
  const parsed = scenarioSchema.safeParse(raw)
  if (!parsed.success) {
    throw new ScenarioError(
      file,
      toIssues(parsed.error.issues, raw, (path) => lineOf(doc, lineCounter, path)),
    )
  }
  const checkers = parsed.data.expectations.checkers
  const unknown = checkers.flatMap((name, i) => (knownCheckers.has(name) ? [] : [i]))
  if (unknown.length > 0) {
    const known = [...knownCheckers.keys()].sort().join(', ')
    throw new ScenarioError(
      file,
      unknown.map((i) => {
        const path = ['expectations', 'checkers', i]
        return {
          path: formatPath(path),
          message: `unknown checker '${checkers[i]}'; known: ${known}`,
          line: lineOf(doc, lineCounter, path),
        }
      }),
    )
  }
  return parsed.data
}

/** Throws a ScenarioError with JSON.parse's message and the line and column of its position. */
function checkJsonSyntax(text: string, file: string): void {
  try {
    JSON.parse(text)
  } catch (error) {
    const message = (error as Error).message
    const pos = jsonErrorPosition(message, text)
    const before = text.slice(0, pos)
    const line = before.split('\n').length
    const column = pos - before.lastIndexOf('\n')
    const reason = message.replace(/ in JSON at position \d+.*$/, '').replace(/^(Unexpected token '.'), [\s\S]*$/, '$1')
    throw new ScenarioError(file, [{ path: '', message: `not valid JSON (column ${column}): ${reason}`, line }])
  }
}

/**
 * Where JSON.parse stopped: V8 names a position, or for an unexpected token quotes up to ten
 * characters either side of it (`..."` when cut), or nothing when the text ended early.
 */
function jsonErrorPosition(message: string, text: string): number {
  const at = /at position (\d+)/.exec(message)
  if (at) return Number(at[1])
  const token = /^Unexpected token '(.)', (\.\.\.)?"([\s\S]*?)"(?:\.\.\.)? is not valid JSON$/.exec(message)
  if (token) {
    const [, char, cut, context] = token as unknown as [string, string, string | undefined, string]
    const start = text.indexOf(context)
    if (start >= 0) return cut ? start + 10 : start + context.indexOf(char)
  }
  return text.length
}

function lineOf(doc: ReturnType<typeof parseDocument>, counter: LineCounter, path: readonly PropertyKey[]): number | undefined {
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n) as unknown[], true) as { range?: [number, number, number] } | undefined
    if (node && typeof node === 'object' && Array.isArray(node.range)) return counter.linePos(node.range[0]).line
    if (n === 0 && (isMap(doc.contents) || isSeq(doc.contents))) return undefined
  }
  return undefined
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing'
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'a mapping'
  const text = JSON.stringify(value)
  return text.length > 40 ? `${text.slice(0, 37)}...` : text
}

function at(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined
    v = (v as Record<PropertyKey, unknown>)[p]
  }
  return v
}

function toIssues(
  issues: readonly z.core.$ZodIssue[],
  raw: unknown,
  line: (path: readonly PropertyKey[]) => number | undefined,
): ScenarioIssue[] {
  const out: ScenarioIssue[] = []
  for (const issue of issues) {
    const path = issue.path as PropertyKey[]
    let message = issue.message
    if (issue.code === 'unrecognized_keys') {
      message = `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `'${k}'`).join(', ')}`
    } else if (issue.code === 'invalid_value') {
      message = `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, got ${describe(at(raw, path))}`
    } else if (issue.code === 'invalid_type' || issue.code === 'invalid_union') {
      const got = at(raw, path)
      message =
        got === undefined
          ? `is required${issue.code === 'invalid_type' ? ` (expected ${issue.expected})` : ''}`
          : `${issue.message.replace(/^Invalid input: /, '').replace(/^Invalid input$/, 'invalid value')}, got ${describe(got)}`
    } else {
      const got = at(raw, path)
      if (got !== undefined && typeof got !== 'object') message = `${message}, got ${describe(got)}`
    }
    out.push({ path: formatPath(path), message, line: line(path) })
  }
  return out
}

/**
 * Reads a scenario file written by `writeScenarioFile` as the program and fault rates it holds.
 * Read as `loadScenarioFile` reads: a missing file or bad JSON is a ScenarioError naming the file.
 * It lives here, not beside `writeScenarioFile`, so that the writer (which the properties load)
 * does not load the checker registry, whose checkers load the properties.
 *
 * @example
 * const { program, faults } = readScenarioFile(file)
 */
export function readScenarioFile(file: string): { program: Program; faults: Omit<FaultsInput, 'schedule'> } {
  refuseArgument('readScenarioFile', 'file', file, 'string')
  return programOfScenario(loadScenarioFile(file))
}
