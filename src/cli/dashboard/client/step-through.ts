import type { VNode } from 'preact'
import { useEffect, useRef, useState } from 'preact/hooks'
import type { WalkStep, Walkthrough } from '../../counterexample/walkthrough.js'
import { html } from './dashboard-html.js'
import { momentDrawing } from './moment-drawing.js'
import { SequencePicture } from './sequence-picture.js'
import { sinceStart } from './since-start.js'

/** Keys that move through the steps; typing in a field is left alone. */
const KEYS: Readonly<Record<string, 'next' | 'previous' | 'violation' | 'first' | 'last'>> = {
  ArrowRight: 'next',
  n: 'next',
  j: 'next',
  ArrowLeft: 'previous',
  p: 'previous',
  k: 'previous',
  v: 'violation',
  Home: 'first',
  End: 'last',
}

/** The step index a move leads to. */
function moved(walk: Walkthrough, at: number, move: (typeof KEYS)[string]): number {
  const last = walk.steps.length - 1
  if (move === 'next') return Math.min(last, at + 1)
  if (move === 'previous') return Math.max(0, at - 1)
  if (move === 'first') return 0
  if (move === 'last') return last
  return walk.violationStep < 0 ? at : walk.violationStep
}

/** The marks a step carries in the list: the violation, a failed step, faults. */
function marks(walk: Walkthrough, step: WalkStep, i: number): string {
  const faults = step.moments.filter((m) => m.kind === 'fault').length
  return [i === walk.violationStep ? '⚠ violation' : '', step.ok ? '' : '✘ failed', faults > 0 ? `⚡ ${faults}` : '']
    .filter(Boolean)
    .join(' ')
}

/** The verdicts: the violated ones first, each witness a button that shows it in its step. */
function Verdicts({ walk, show }: { walk: Walkthrough; show: (seq: number) => void }): VNode {
  const failed = walk.verdicts.filter((v) => !v.ok)
  return html`<section class="verdicts" aria-labelledby="verdicts-title">
    <h3 id="verdicts-title">${failed.length === 0 ? 'Every check held' : `${failed.length} check(s) violated`}</h3>
    <ul>
      ${[...failed, ...walk.verdicts.filter((v) => v.ok)].map(
        (v) => html`<li class=${v.ok ? 'held' : 'violated'}>
          <span class=${v.ok ? 'status-ok' : 'status-bad'}>${v.ok ? '✔ held' : '✘ violated'}</span> <strong>${v.name}</strong>: ${v.message}
          ${
            v.witness.length === 0
              ? ''
              : html`<span class="witnesses"> witnessed by ${v.witness.map(
                  (seq) => html` <button type="button" class="link" onClick=${() => show(seq)}>#${seq}</button>`,
                )}</span>`
          }
        </li>`,
      )}
    </ul>
  </section>`
}

/**
 * The violation, where it happens: each violated check and the entries that witness it, in words
 * (what the app did, the event it handled, the provider's state), each a button to its row.
 */
function Violation({ walk, show }: { walk: Walkthrough; show: (seq: number) => void }): VNode {
  const moments = new Map(walk.steps.flatMap((s) => s.moments.map((m) => [m.seq, m] as const)))
  return html`<div class="violation-here" role="note" aria-label="The violation">⚠ The violation: the marked rows witness it.
    <ul>${walk.verdicts
      .filter((v) => !v.ok)
      .map(
        (v) => html`<li><strong>${v.name}</strong>: ${v.message}
          <ul class="witness-list">${v.witness.map((seq) => {
            const m = moments.get(seq)
            return html`<li><button type="button" class="link" onClick=${() => show(seq)}>#${seq}</button> ${m === undefined ? '' : momentDrawing(m).says}</li>`
          })}</ul></li>`,
      )}</ul></div>`
}

/** The row of buttons that move through the steps, with their keys. */
function Controls({ walk, at, go }: { walk: Walkthrough; at: number; go: (i: number) => void }): VNode {
  const last = walk.steps.length - 1
  return html`<div class="walk-controls" role="toolbar" aria-label="Step through the run">
    <button type="button" onClick=${() => go(at - 1)} disabled=${at === 0} aria-keyshortcuts="ArrowLeft p">← Previous step</button>
    <span class="position">${at === 0 ? 'Setup' : at === last ? 'End of run' : `Step ${at} of ${last - 1}`}</span>
    <button type="button" onClick=${() => go(at + 1)} disabled=${at === last} aria-keyshortcuts="ArrowRight n">Next step →</button>
    ${
      walk.violationStep < 0
        ? ''
        : html`<button type="button" class="to-violation" onClick=${() => go(walk.violationStep)} aria-keyshortcuts="v">
            Go to the violation</button>`
    }
    <span class="muted keys">Keys: ← → (or p, n) move, v the violation</span>
  </div>`
}

/**
 * A replayed counterexample, step by step: its verdicts with their witnesses, the list of steps
 * (marked where the violation, failed steps and faults are), and the current step as a sequence
 * picture of provider and app. The arrow keys (or n and p) move to the next and previous step, v
 * to the violation; a witness's button opens its step and moves the focus to its row. Where the
 * page is (its step) is announced to screen readers.
 *
 * @example
 * html`<${StepThrough} walk=${walk} />`
 */
export function StepThrough({ walk }: { walk: Walkthrough }): VNode {
  const [at, setAt] = useState(0)
  const focusSeq = useRef<number | undefined>(undefined)
  const go = (i: number) => setAt(Math.max(0, Math.min(walk.steps.length - 1, i)))
  useEffect(() => setAt(0), [walk])
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null
      if (e.altKey || e.ctrlKey || e.metaKey || target?.closest('input, select, textarea') != null) return
      const move = KEYS[e.key]
      if (move === undefined) return
      e.preventDefault()
      setAt((i) => moved(walk, i, move))
    }
    addEventListener('keydown', onKey)
    return () => removeEventListener('keydown', onKey)
  }, [walk])
  useEffect(() => {
    if (focusSeq.current === undefined) return
    document.getElementById(`m-${focusSeq.current}`)?.focus()
    focusSeq.current = undefined
  })
  const show = (seq: number) => {
    const i = walk.steps.findIndex((s) => s.moments.some((m) => m.seq === seq))
    if (i < 0) return
    focusSeq.current = seq
    setAt(i)
  }
  const step = walk.steps[at] as WalkStep
  return html`<div class="walk">
    <${Verdicts} walk=${walk} show=${show} />
    <${Controls} walk=${walk} at=${at} go=${go} />
    <div class="walk-body">
      <nav aria-label="Steps of the run"><ol class="steps">
        ${walk.steps.map(
          (s, i) => html`<li><button type="button" aria-current=${i === at ? 'step' : undefined} onClick=${() => go(i)}
              class=${i === walk.violationStep ? 'violation-step' : ''}>
            <span class="step-n">${i === 0 ? 'setup' : i === walk.steps.length - 1 ? 'end' : `#${s.n}`}</span> ${s.label}
            <span class="step-marks">${marks(walk, s, i)}</span></button></li>`,
        )}
      </ol></nav>
      <section class="step" aria-labelledby="step-title">
        <h3 id="step-title" aria-live="polite">${at === 0 ? 'Setup' : at === walk.steps.length - 1 ? 'End of run' : `Step ${step.n}`}: ${step.label}</h3>
        <p class="muted">${sinceStart(step.at - walk.start)} → ${sinceStart(step.end - walk.start)}${step.ok ? '' : html` · <span class="status-bad">failed: ${step.note ?? ''}</span>`}</p>
        ${at === walk.violationStep ? html`<${Violation} walk=${walk} show=${show} />` : ''}
        <${SequencePicture} step=${step} start=${walk.start} />
      </section>
    </div>
  </div>`
}
