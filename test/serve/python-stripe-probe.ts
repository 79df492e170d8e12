import { spawnSync } from 'node:child_process'

/** Debian's interpreter: python3-stripe is a Debian package, not in a pyenv `python3` on PATH. */
export const PYTHON = '/usr/bin/python3'

/**
 * Why a test file of Python apps is skipped here (printed once for `file`), or undefined when
 * Debian's python3-stripe imports.
 */
export function pythonStripeMissing(file: string): string | undefined {
  const probe = spawnSync(PYTHON, ['-c', 'import stripe'], { encoding: 'utf8' })
  if (probe.error === undefined && probe.status === 0) return undefined
  const why = `skipped: '${PYTHON} -c "import stripe"' failed (${probe.error?.message ?? probe.stderr.trim().split('\n').pop()}); install Debian's python3-stripe (apt-get install python3-stripe, as .ci/run does)`
  process.stderr.write(`${file} ${why}\n`)
  return why
}
