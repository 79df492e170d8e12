import { tableError } from '#domain/service-error.js'

/**
 * The body text of a request: a `multipart/form-data` body (a file upload) is read byte for byte
 * as latin1, so a binary file keeps its length and bytes; anything else as UTF-8 text.
 *
 * @example
 * const text = await bodyText(request)
 */
export async function bodyText(request: Request): Promise<string> {
  const type = request.headers.get('content-type') ?? ''
  if (!type.toLowerCase().startsWith('multipart/form-data')) return request.text()
  return Buffer.from(await request.arrayBuffer()).toString('latin1')
}

/** The value of a `name="…"` attribute of a part's `Content-Disposition`. */
function attribute(disposition: string, name: string): string | undefined {
  const m = new RegExp(`(?:^|;)\\s*${name}="((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(disposition)
  return m?.[1]?.replace(/\\(.)/g, '$1')
}

/**
 * Decodes a `multipart/form-data` body read as latin1 (see `bodyText`) into form params: a text
 * part becomes one of `fields` (bracket names nest, as in a form body, through `parseForm`), a file part
 * one of `files`, `{ data, name, type }` (the client's `FileData`, `data` holding the bytes as latin1).
 * A body without its boundary (in the header or in the body) or with a part without a name is a
 * 400 `invalid_content_type`.
 *
 * @example
 * decodeMultipart(body, 'multipart/form-data; boundary=x', parseForm) // { fields: { purpose: 'dispute_evidence' }, files: { file: { data, name: 'a.pdf', type: 'application/pdf' } } }
 */
export function decodeMultipart(
  text: string,
  contentType: string,
  parseForm: (form: string) => Record<string, unknown>,
): { fields: Record<string, unknown>; files: Record<string, { data: string; name?: string; type?: string }> } {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1]
  const refuse = () =>
    tableError('invalid_content_type', {
      type: 'multipart/form-data',
      namespace: '/v1',
      expected: 'a multipart/form-data body with its boundary',
    })
  if (boundary === undefined) throw refuse()
  const fields: string[] = []
  const files: Record<string, { data: string; name?: string; type?: string }> = {}
  const chunks = text.split(`--${boundary}`)
  // A body with no delimiter line is not multipart at all: taking it as no parts would drop it.
  if (chunks.length < 2) throw refuse()
  for (const chunk of chunks.slice(1)) {
    if (chunk.startsWith('--')) break
    const headEnd = chunk.indexOf('\r\n\r\n')
    if (headEnd === -1) throw refuse()
    const head = chunk.slice(0, headEnd)
    // The part's body ends with the CRLF before the next boundary.
    const body = chunk.slice(headEnd + 4).replace(/\r\n$/, '')
    const disposition = /content-disposition:([^\r\n]*)/i.exec(head)?.[1] ?? ''
    const name = attribute(disposition, 'name')
    if (name === undefined) throw refuse()
    const filename = attribute(disposition, 'filename')
    if (filename === undefined) {
      const value = Buffer.from(body, 'latin1').toString('utf8')
      fields.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
      continue
    }
    const type = /content-type:\s*([^\r\n]*)/i.exec(head)?.[1]?.trim()
    files[name] = { data: body, name: Buffer.from(filename, 'latin1').toString('utf8'), ...(type ? { type } : {}) }
  }
  return { fields: parseForm(fields.join('&')), files }
}
