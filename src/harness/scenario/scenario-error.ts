/** One problem found in a scenario file. */
export interface ScenarioIssue {
  /** Path inside the file, e.g. `workload[2].request.path`; empty for the whole file. */
  readonly path: string
  /** What was expected. */
  readonly message: string
  /** 1-based line in the file, when known. */
  readonly line?: number | undefined
}

/**
 * A scenario file that cannot be used: names the file, the path inside it and what was expected.
 * The CLI prints `message` (never a stack) and exits 2.
 *
 * @example
 * throw new ScenarioError('scenarios/x.yaml', [{ path: 'seed', message: 'expected an integer' }])
 */
export class ScenarioError extends Error {
  readonly file: string
  readonly issues: readonly ScenarioIssue[]

  constructor(file: string, issues: readonly ScenarioIssue[]) {
    super(formatIssues(file, issues))
    this.name = 'ScenarioError'
    this.file = file
    this.issues = issues
  }
}

function formatIssues(file: string, issues: readonly ScenarioIssue[]): string {
  const lines = issues.map((i) => {
    const where = `${file}${i.line === undefined ? '' : `:${i.line}`}`
    return `${where}: ${i.path === '' ? '' : `${i.path}: `}${i.message}`
  })
  return lines.join('\n')
}

/**
 * Renders a zod issue path as `workload[2].request.path`.
 *
 * @example
 * formatPath(['workload', 2, 'request']) // 'workload[2].request'
 */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = ''
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`
    else out += out === '' ? String(part) : `.${String(part)}`
  }
  return out
}
