/**
 * CSV cells safe to open in a spreadsheet: a cell that starts with `=`, `+`,
 * `-`, `@` (or a tab or carriage return, which some spreadsheets skip before
 * reading a formula) is prefixed with a single quote, so it is shown as text
 * and never evaluated as a formula (OWASP "CSV injection").
 */
export function safeCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = Array.isArray(v) ? v.join('; ') : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}
