import type { VNode } from 'preact'
import type { WalkStep } from '../../counterexample/walkthrough.js'
import { html } from './dashboard-html.js'
import { momentDrawing } from './moment-drawing.js'
import { sinceStart } from './since-start.js'

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
        const { picture, says } = momentDrawing(m)
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
