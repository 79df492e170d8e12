import type { VNode } from 'preact'
import type { Moment, WalkStep } from '../../counterexample/walkthrough.js'
import { html } from './dashboard-html.js'
import { readableBody, statusClass } from './display.js'

/**
 * A virtual time as an offset from the run's start: `+0 ms`, `+1.5 s`, `+2 h 5 min`.
 *
 * @example
 * sinceStart(90_000) // '+1 min 30 s'
 */
export function sinceStart(ms: number): string {
  if (ms < 1000) return `+${ms} ms`
  const parts: string[] = []
  let rest = Math.floor(ms / 1000)
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3600],
    ['min', 60],
  ] as const) {
    if (rest >= size) parts.push(`${Math.floor(rest / size)} ${unit}`)
    rest %= size
  }
  const seconds = rest + (ms % 1000) / 1000
  if (seconds > 0 || parts.length === 0) parts.push(`${Number(seconds.toFixed(3))} s`)
  return `+${parts.join(' ')}`
}

/** An arrow between the lanes, with its label above; `to` is the lane it points at. */
function arrow(to: 'provider' | 'app', label: VNode | string, tone = ''): VNode {
  return html`<div class=${`arrow to-${to} ${tone}`}><span class="arrow-label">${label}</span></div>`
}

/** A body, folded: what the app sent or answered, readable on demand. */
function body(summary: string, text: string | undefined): VNode | string {
  if (text === undefined || text === '') return ''
  return html`<details><summary>${summary}</summary><pre>${readableBody(text)}</pre></details>`
}

/** The arrows (or note) of one moment and the sentence a screen reader reads for it. */
function drawing(m: Moment): { picture: VNode; says: string } {
  switch (m.kind) {
    case 'request':
      return {
        says: `The app requested ${m.method} ${m.path}; the provider answered ${m.status}`,
        picture: html`${arrow('provider', html`<code>${m.method} ${m.path}</code>`)}
          ${arrow('app', html`<span class=${statusClass(m.status)}>${m.status}</span>${m.requestId ? html` <span class="muted">${m.requestId}</span>` : ''}`, 'answer')}
          ${body('Request and response', [m.request, m.response].filter(Boolean).join('\n\n'))}`,
      }
    case 'delivery': {
      const answered = m.status === null ? m.outcome.replaceAll('_', ' ') : String(m.status)
      const what = `${m.type ?? 'event'} ${m.event}`
      return {
        says: `The provider delivered ${what} to the app (attempt ${m.attempt}, ${m.trigger}); the app answered ${answered}${m.answer ? `: ${m.answer.slice(0, 80)}` : ''}`,
        picture: html`${arrow('app', html`<code>${what}</code> <span class="muted">attempt ${m.attempt}, ${m.trigger}</span>`)}
          ${arrow('provider', html`<span class=${statusClass(m.status)}>${answered}</span>${m.answer ? html` <q class="answer">${m.answer.slice(0, 80)}</q>` : ''}${m.next === null ? '' : html` <span class="muted">next try ${sinceStart(Math.max(0, m.next - m.at))} later</span>`}`, 'answer')}
          ${body("The app's whole answer", m.answer)}`,
      }
    }
    case 'event':
      return {
        says: `The provider emitted ${m.type} (${m.id})`,
        picture: html`<div class="note on-provider">event <code>${m.type}</code> <span class="muted">${m.id}</span></div>`,
      }
    case 'fault':
      return {
        says: `Fault ${m.fault} (${m.source}): ${m.detail}`,
        picture: html`<div class="note fault">⚡ fault <strong>${m.fault}</strong> <span class="muted">(${m.source})</span> ${m.detail === m.fault ? '' : m.detail}</div>`,
      }
    case 'receiver':
      return {
        says: `The app's receiver went ${m.down ? 'down' : 'up'}`,
        picture: html`<div class=${`note on-app ${m.down ? 'status-bad' : 'status-ok'}`}>receiver ${m.down ? 'down' : 'up'}</div>`,
      }
    default:
      return {
        says: `${m.lane === 'app' ? 'The app' : 'The provider'}: ${m.what} ${m.detail}`,
        picture: html`<div class=${`note on-${m.lane}`}><strong>${m.what}</strong> <code>${m.detail}</code></div>`,
      }
  }
}

/**
 * One step of a counterexample as a sequence picture: the provider's lane on the left, the app's
 * on the right, and between them, in trace order, the requests the app made and what they got,
 * the deliveries and what the app answered, the events, the faults and the notes. Every row says
 * in words what it draws (for screen readers); a row that witnesses the violation is marked and
 * names the check it witnesses.
 *
 * @example
 * html`<${SequencePicture} step=${walk.steps[1]} start=${walk.start} />`
 */
export function SequencePicture({ step, start }: { step: WalkStep; start: number }): VNode {
  if (step.moments.length === 0)
    return html`<p class="empty">Nothing to draw in this step${step.hidden > 0 ? ` (${step.hidden} bookkeeping entries)` : ''}.</p>`
  return html`<div class="sequence">
    <div class="lanes" aria-hidden="true"><span>Time</span><span>Provider (service-sim)</span><span>App</span></div>
    <ol aria-label=${`What happened in step ${step.n}`}>
      ${step.moments.map((m) => {
        const { picture, says } = drawing(m)
        const witness = m.witness === undefined ? undefined : `Witness of ${m.witness.join(', ')}`
        return html`<li id=${`m-${m.seq}`} class=${witness ? 'moment witness' : 'moment'} tabindex="-1"
            aria-label=${witness ? `${says}. ${witness}` : says}>
          <span class="at">${sinceStart(m.at - start)}<br /><span class="muted">#${m.seq}</span></span>
          <div class="lanes-body">${picture}${witness ? html`<p class="witness-tag">${witness}</p>` : ''}</div>
        </li>`
      })}
    </ol>
    ${step.hidden > 0 ? html`<p class="muted">${step.hidden} bookkeeping entries of this step are not drawn.</p>` : ''}
  </div>`
}
