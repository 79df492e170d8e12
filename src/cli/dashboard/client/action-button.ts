import type { VNode } from 'preact'
import { useState } from 'preact/hooks'
import { html } from './dashboard-html.js'

/**
 * A button that runs an action of the admin API: disabled while it runs, and its outcome said
 * next to it (a status for screen readers, an alert when it failed).
 *
 * @example
 * html`<${ActionButton} label="Roll secret" name="Roll the secret of we_1" act=${() => adminPost('/destinations/we_1/roll_secret', {})} />`
 */
export function ActionButton({
  label,
  name,
  act,
  done,
}: {
  label: string
  name?: string
  act: () => Promise<unknown>
  done?: string
}): VNode {
  const [busy, setBusy] = useState(false)
  const [said, setSaid] = useState<{ ok: boolean; text: string } | undefined>(undefined)
  const click = async () => {
    setBusy(true)
    setSaid(undefined)
    try {
      await act()
      setSaid({ ok: true, text: done ?? 'Done.' })
    } catch (e) {
      setSaid({ ok: false, text: (e as Error).message })
    } finally {
      setBusy(false)
    }
  }
  return html`<span class="action"><button type="button" disabled=${busy} onClick=${click} aria-label=${name}>${label}</button>
    ${
      said === undefined
        ? null
        : said.ok
          ? html` <span role="status" class="muted">${said.text}</span>`
          : html` <span role="alert" class="status-bad">${said.text}</span>`
    }</span>`
}
