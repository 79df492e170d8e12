import { DocumentAnswer } from '../../document.js'
import type { Json } from '../../engine/list.js'

/** Text as a PDF string literal: backslashes and parentheses escaped, other than printable ASCII dropped. */
const pdfText = (s: string) => s.replace(/[^\x20-\x7e]/g, '').replace(/[\\()]/g, (c) => `\\${c}`)

/**
 * A stub quote document: a valid one-page PDF naming the quote, its number and total. The
 * provider renders a designed document; the bytes here only need to open as a PDF and say which
 * quote they are. Built from the quote alone, so the same quote gives the same bytes.
 *
 * @example
 * quotePdf(quote).text.startsWith('%PDF-') // true
 */
export function quotePdf(quote: Json): DocumentAnswer {
  const lines = [
    `Quote ${quote.number ?? quote.id}`,
    `Total: ${quote.amount_total} ${String(quote.currency ?? '').toUpperCase()}`,
    `Expires at: ${quote.expires_at}`,
  ]
  const content = `BT /F1 14 Tf 72 720 Td 18 TL ${lines.map((l) => `(${pdfText(l)}) Tj T*`).join(' ')} ET`
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]
  let body = '%PDF-1.4\n'
  const offsets: number[] = []
  objects.forEach((o, i) => {
    offsets.push(body.length)
    body += `${i + 1} 0 obj\n${o}\nendobj\n`
  })
  const xref = body.length
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const off of offsets) body += `${String(off).padStart(10, '0')} 00000 n \n`
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return new DocumentAnswer('application/pdf', body)
}
