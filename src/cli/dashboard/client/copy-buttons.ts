import type { VNode } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { adminGet } from './admin-client.js'
import { html } from './dashboard-html.js'
import { type CopyContext, curlCommand, nodeClientCall } from './request-copy.js'
import type { RequestRow } from './request-row.js'

/** `GET /state` as far as a copied request needs it. */
interface StateJson {
  readonly header_prefix: string
  readonly platform: { readonly id: string; readonly secret_key: { readonly test: string; readonly live: string } }
}

/**
 * What copying a request needs, read once from `GET /state` (the platform's keys and the header
 * prefix); undefined until it has come.
 *
 * @example
 * const ctx = useCopyContext()
 */
export function useCopyContext(): CopyContext | undefined {
  const [ctx, setCtx] = useState<CopyContext | undefined>(undefined)
  useEffect(() => {
    adminGet<StateJson>('/state')
      .then((s) =>
        setCtx({ origin: location.origin, platform: s.platform.id, keys: s.platform.secret_key, prefix: s.header_prefix }),
      )
      .catch(() => setCtx(undefined))
  }, [])
  return ctx
}

const FORMS = [
  { id: 'curl', label: 'Copy as curl', name: 'curl command', make: curlCommand },
  { id: 'node', label: 'Copy as Node call', name: 'Node client call', make: nodeClientCall },
] as const

/**
 * Two buttons that copy a request as a `curl` command or as the official node client's call: the
 * text is shown (to read or select) and put on the clipboard where the browser allows it.
 *
 * @example
 * html`<${CopyButtons} row=${row} ctx=${ctx} />`
 */
export function CopyButtons({ row, ctx }: { row: RequestRow; ctx: CopyContext | undefined }): VNode {
  const [shown, setShown] = useState<{ form: (typeof FORMS)[number]; text: string; note: string } | undefined>(undefined)
  useEffect(() => setShown(undefined), [row.seq])
  const copy = async (form: (typeof FORMS)[number]) => {
    if (ctx === undefined) return
    const text = form.make(row, ctx)
    setShown({ form, text, note: '' })
    try {
      await navigator.clipboard.writeText(text)
      setShown({ form, text, note: 'Copied to the clipboard.' })
    } catch {
      setShown({ form, text, note: 'The browser kept the clipboard closed: select the text to copy it.' })
    }
  }
  return html`<div class="copy">
    <p>${FORMS.map((f) => html`<button type="button" disabled=${ctx === undefined} onClick=${() => copy(f)}>${f.label}</button> `)}</p>
    ${
      shown === undefined
        ? null
        : html`<p class="muted" role="status">${shown.note}</p><pre tabindex="0" aria-label=${shown.form.name}>${shown.text}</pre>`
    }
  </div>`
}
