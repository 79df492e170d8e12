/**
 * An answer that is a document rather than JSON (a quote's PDF): the HTTP edge writes its text as
 * it is, with its media type, where every other answer is serialised as JSON.
 *
 * @example
 * return new DocumentAnswer('application/pdf', '%PDF-1.4\n…')
 */
export class DocumentAnswer {
  constructor(
    readonly contentType: string,
    readonly text: string,
  ) {}
}
