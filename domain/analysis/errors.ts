/**
 * The one error type the analysis domain throws.
 *
 * Routes translate it into a 400 response: `field` names the request field
 * that was wrong (e.g. `operation`, `section_id`, `payload.order`) so the
 * client can point at it without parsing the message.
 */
export class AnalysisInputError extends Error {
  readonly field: string;

  constructor(field: string, message: string) {
    super(message);
    this.name = 'AnalysisInputError';
    this.field = field;
  }
}
