import type { VNode } from 'preact'
import type { Moment } from '../../counterexample/walkthrough.js'
import { html } from './dashboard-html.js'
import { readableBody, statusClass } from './display.js'
import { sinceStart } from './since-start.js'

/** What the picture draws of a moment, and the sentence a screen reader reads for it. */
interface Drawing {
  readonly picture: VNode
  readonly says: string
}

/** An arrow between the lanes, with its label above; `to` is the lane it points at. */
function arrow(to: 'provider' | 'app', label: VNode | string, tone = ''): VNode {
  return html`<div class=${`arrow to-${to} ${tone}`}><span class="arrow-label">${label}</span></div>`
}

/** A body, folded: what the app sent or answered, readable on demand. */
function body(summary: string, text: string | undefined): VNode | string {
  if (text === undefined || text === '') return ''
  return html`<details><summary>${summary}</summary><pre tabindex="0">${readableBody(text)}</pre></details>`
}

type Of<K extends Moment['kind']> = Extract<Moment, { kind: K }>

/** How long the app took: `in 0 ms`, `in 1.2 s`. */
const took = (ms: number) => `in ${ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(3))} s`}`

function delivery(m: Of<'delivery'>): Drawing {
  const timedOut = m.outcome === 'timeout'
  const answered =
    m.status === null
      ? timedOut
        ? `no answer (timed out after ${took(m.duration).slice(3)})`
        : m.outcome.replaceAll('_', ' ')
      : String(m.status)
  const what = `${m.type ?? 'event'} ${m.event}`
  const latency = m.status === null ? '' : ` ${took(m.duration)}`
  return {
    says: `The provider delivered ${what} to the app (attempt ${m.attempt}, ${m.trigger}); the app answered ${answered}${latency}${m.answer ? `: ${m.answer.slice(0, 80)}` : ''}`,
    picture: html`${arrow('app', html`<code>${what}</code> <span class="muted">attempt ${m.attempt}, ${m.trigger}</span>`)}
      ${arrow(
        'provider',
        html`<span class=${statusClass(m.status)}>${answered}</span>${latency === '' ? '' : html` <span class="muted">${latency}</span>`}${m.answer ? html` <q class="answer">${m.answer.slice(0, 80)}</q>` : ''}${m.next === null ? '' : html` <span class="muted">next try ${sinceStart(Math.max(0, m.next - m.at))} later</span>`}`,
        'answer',
      )}
      ${body("The app's whole answer", m.answer)}`,
  }
}

function forged(m: Of<'forged'>): Drawing {
  const what = `${m.type ?? 'event'} ${m.event} about ${m.object}`
  const answered = m.status === null ? m.outcome : `${m.status} (${m.outcome})`
  return {
    says: `An attacker sent the app a forged delivery (${m.forgery.replaceAll('_', ' ')}): ${what}; the app answered ${answered}`,
    picture: html`${arrow('app', html`⚠ forged (${m.forgery.replaceAll('_', ' ')}) <code>${what}</code>`, 'forged')}
      ${arrow('provider', html`<span class=${m.outcome === 'accepted' ? 'status-bad' : 'status-ok'}>${answered}</span>`, 'answer')}`,
  }
}

function action(m: Of<'action'>): Drawing {
  const parts = [
    m.handled === undefined ? 'outside any delivery' : `while handling ${m.handled}`,
    m.knew === undefined ? '' : `knowing ${m.knew}`,
    m.provider === undefined ? '' : `the provider's ${m.provider}`,
  ].filter(Boolean)
  return {
    says: `The app did ${m.action} for ${m.key}, ${parts.join('; ')}`,
    picture: html`<div class="note on-app action">
      <strong>did ${m.action}</strong> for <code>${m.key}</code>
      <dl class="action-facts">
        <dt>Handling</dt><dd>${m.handled ?? 'no delivery'}</dd>
        ${m.knew === undefined ? '' : html`<dt>It knew</dt><dd>${m.knew}</dd>`}
        <dt>Provider's state</dt><dd>${m.provider ?? '—'}</dd>
      </dl></div>`,
  }
}

function note(m: Of<'note'>): Drawing {
  const who = m.lane === 'app' ? 'The app' : 'The provider'
  return {
    says: `${who}, ${m.what}: ${m.says ?? m.detail}`,
    picture: html`<div class=${`note on-${m.lane}`}><strong>${m.what}</strong> ${m.says === undefined ? html`<code>${m.detail}</code>` : html`${m.says} ${body('The record', m.detail)}`}</div>`,
  }
}

/**
 * The arrows (or note) of one moment of a counterexample, and the sentence a screen reader reads
 * for it: a request and its answer, a delivery with the app's answer (status, body, latency, or
 * the time-out), an event, a fault, the receiver going down or up, a redeploy, a forged delivery
 * and the app's answer, something the app did (with the event it handled and the provider's
 * state), or a note.
 *
 * @example
 * const { picture, says } = momentDrawing(moment)
 */
export function momentDrawing(m: Moment): Drawing {
  switch (m.kind) {
    case 'request':
      return {
        says: `The app requested ${m.method} ${m.path}; the provider answered ${m.status}`,
        picture: html`${arrow('provider', html`<code>${m.method} ${m.path}</code>`)}
          ${arrow('app', html`<span class=${statusClass(m.status)}>${m.status}</span>${m.requestId ? html` <span class="muted">${m.requestId}</span>` : ''}`, 'answer')}
          ${body('Request and response', [m.request, m.response].filter(Boolean).join('\n\n'))}`,
      }
    case 'delivery':
      return delivery(m)
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
    case 'redeploy':
      return {
        says: `The app was ${m.reason === 'start' ? 'deployed' : `redeployed (${m.reason}): its memory lost, its database kept`}`,
        picture: html`<div class="note on-app redeploy">⟳ ${m.reason === 'start' ? 'deployed' : html`<strong>redeployed</strong> (${m.reason}): memory lost, database kept`}</div>`,
      }
    case 'forged':
      return forged(m)
    case 'action':
      return action(m)
    default:
      return note(m)
  }
}
