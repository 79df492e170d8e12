import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { join } from 'node:path'

/** One measured figure next to its baseline. `ratio` is figure / baseline (higher is better for rates). */
export interface Figure {
  name: string
  value: number
  unit: string
  baseline?: { name: string; value: number }
  ratio?: number
  /** Which way the ratio should go; `bench:check` compares ratios with this sense. Default 'higher'. */
  better?: 'higher' | 'lower'
  target?: string
  pass?: boolean
}

/**
 * A rate next to its baseline rate; with `atLeast`, the target is `ratio >= atLeast`.
 *
 * @example
 * rateFigure('customer create: service-sim vs msw', 6000, 'calls/s', { name: 'msw', value: 1900 }, 3)
 */
export function rateFigure(
  name: string,
  value: number,
  unit: string,
  baseline?: { name: string; value: number },
  atLeast?: number,
): Figure {
  if (!baseline) return { name, value, unit }
  const ratio = value / baseline.value
  return {
    name,
    value,
    unit,
    baseline,
    ratio,
    ...(atLeast === undefined ? {} : { target: `>= ${atLeast}x`, pass: ratio >= atLeast }),
  }
}

/** The machine a bench ran on, so figures are read with their context. */
export function machine() {
  return {
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memory_gib: Math.round(totalmem() / 2 ** 30),
    platform: `${process.platform}-${process.arch}`,
  }
}

/**
 * Writes `reports/bench/<name>.json` and `.md`, and prints the table.
 *
 * @example
 * writeBenchReport('fetch-overhead', [{ name: 'GET /v1/account', value: 9000, unit: 'req/s', ratio: 0.4 }])
 */
export function writeBenchReport(name: string, figures: Figure[], notes: string[] = []): void {
  const dir = join(process.cwd(), 'reports', 'bench')
  mkdirSync(dir, { recursive: true })
  const doc = { name, machine: machine(), figures, notes }
  writeFileSync(join(dir, `${name}.json`), `${JSON.stringify(doc, null, 2)}\n`)
  const fmt = (n: number) => (Math.abs(n) >= 100 ? Math.round(n).toLocaleString('en-US') : n.toPrecision(3))
  const rows = figures.map(
    (f) =>
      `| ${f.name} | ${fmt(f.value)} ${f.unit} | ${f.baseline ? `${f.baseline.name}: ${fmt(f.baseline.value)}` : ''} | ${
        f.ratio === undefined ? '' : `${f.ratio.toFixed(2)}x`
      } | ${f.target ?? ''} | ${f.pass === undefined ? '' : f.pass ? 'pass' : 'FAIL'} |`,
  )
  const m = doc.machine
  const md = [
    `# ${name}`,
    '',
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memory_gib} GiB, Node ${m.node}, ${m.platform}.`,
    '',
    '| figure | value | baseline | ratio | target | verdict |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    ...notes.map((n) => `- ${n}`),
    '',
  ].join('\n')
  writeFileSync(join(dir, `${name}.md`), md)
  console.log(md)
}
