import type { VNode } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import type { CounterexampleFile, Walkthrough } from '../../counterexample/walkthrough.js'
import { AdminCallError } from './admin-client.js'
import { html } from './dashboard-html.js'
import { StepThrough } from './step-through.js'

const BASE = '/__dashboard/counterexamples'

/**
 * The address fragment naming this page, with the chosen file after a slash.
 *
 * @example
 * location.hash = `${COUNTEREXAMPLE_HASH}/${encodeURIComponent('no-dedup-0.json')}`
 */
export const COUNTEREXAMPLE_HASH = '#counterexample'

async function read<T>(path: string): Promise<T> {
  const response = await fetch(path, { headers: { Accept: 'application/json' } })
  const body = (await response.json()) as T & { error?: { message?: string } }
  if (!response.ok) throw new AdminCallError(response.status, body.error?.message ?? `${response.status}`)
  return body
}

/** The file the address names (`#counterexample/<name>`), if any. */
function chosenIn(hash: string): string | undefined {
  const prefix = `${COUNTEREXAMPLE_HASH}/`
  return hash.startsWith(prefix) ? decodeURIComponent(hash.slice(prefix.length)) : undefined
}

/** The list of files: where they are, and a choice among them when there are several. */
function FilePicker({ path, files, name }: { path: string; files: readonly CounterexampleFile[]; name: string }): VNode {
  const choose = (e: Event) => {
    location.hash = `${COUNTEREXAMPLE_HASH}/${encodeURIComponent((e.target as HTMLSelectElement).value)}`
  }
  return html`<div class="filters">
    ${
      files.length > 1
        ? html`<label>Counterexample file (newest first)
            <select value=${name} onChange=${choose}>
              ${files.map((f) => html`<option value=${f.name}>${f.name} · ${f.modified.replace('T', ' ').slice(0, 19)}</option>`)}
            </select></label>`
        : ''
    }
    <p class="muted from">From <code>${path}</code></p>
  </div>`
}

/** The run's facts: seed, trace, whether the replay reached the hash the failing run recorded. */
function Facts({ walk }: { walk: Walkthrough }): VNode {
  const reproduced = walk.verdicts.find((v) => v.name === 'reproduces the recorded trace hash')
  return html`<p>
    Seed <code>${walk.seed}</code>, trace <code>${walk.traceHash.slice(0, 16)}</code> (${walk.traceLength} entries)${
      reproduced === undefined
        ? ''
        : reproduced.ok
          ? html`, <span class="status-ok">the same trace as the failing run</span>`
          : html`, <span class="status-bad">not the failing run's trace: ${reproduced.message}</span>`
    }. Replay it in a terminal with <code>service-sim replay ${walk.file}</code>.
  </p>`
}

/**
 * The Counterexample page: the counterexample files the server was given (one, or a property
 * run's directory, newest first), and the chosen one replayed and shown step by step. The
 * address names the file (`#counterexample/<name>`), so a link opens it.
 *
 * @example
 * html`<${CounterexamplePage} hash=${location.hash} />`
 */
export function CounterexamplePage({ hash }: { hash: string }): VNode {
  const [list, setList] = useState<{ path: string | null; files: CounterexampleFile[] } | undefined>(undefined)
  const [walk, setWalk] = useState<Walkthrough | undefined>(undefined)
  const [problem, setProblem] = useState<string | undefined>(undefined)
  useEffect(() => {
    read<{ path: string | null; files: CounterexampleFile[] }>(BASE).then(setList, (e: Error) =>
      // A dashboard that serves no counterexamples (an in-process simulator's) has none to list.
      e instanceof AdminCallError && e.status === 404 ? setList({ path: null, files: [] }) : setProblem(e.message),
    )
  }, [])
  const name = chosenIn(hash) ?? list?.files[0]?.name
  useEffect(() => {
    if (name === undefined) return
    setWalk(undefined)
    setProblem(undefined)
    read<Walkthrough>(`${BASE}/${encodeURIComponent(name)}`).then(setWalk, (e: Error) => setProblem(e.message))
  }, [name])
  if (list !== undefined && list.path === null)
    return html`<h2>Counterexample</h2><p class="empty">No counterexamples here: start serve with
      <code>--counterexamples dir</code> (a property's scenarioDir), or open one with <code>service-sim open file</code>.</p>`
  return html`<h2>Counterexample${name === undefined ? '' : html` <code>${name}</code>`}</h2>
    ${list === undefined || list.path === null || name === undefined ? '' : html`<${FilePicker} path=${list.path} files=${list.files} name=${name} />`}
    ${list !== undefined && list.files.length === 0 ? html`<p class="empty">No counterexample files in ${list.path} yet.</p>` : ''}
    ${problem === undefined ? '' : html`<p role="alert" class="status-bad">${problem}</p>`}
    ${
      walk === undefined
        ? problem === undefined && name !== undefined
          ? html`<p role="status">Replaying ${name}…</p>`
          : ''
        : html`<${Facts} walk=${walk} /><${StepThrough} walk=${walk} />`
    }`
}
