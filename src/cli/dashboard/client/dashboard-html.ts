import { html as bound } from 'htm/preact'
import type { VNode } from 'preact'

/**
 * The dashboard's templates: preact's `h` through htm's tagged templates (htm's own binding), so
 * the page is written as markup without a JSX build step.
 *
 * @example
 * html`<p class="muted">No requests yet</p>`
 */
export const html: (strings: TemplateStringsArray, ...values: unknown[]) => VNode = bound
