/**
 * Input checks shared by the outline operations: an array of sections,
 * each with a unique non-empty string id and a string heading.
 */
import { AnalysisInputError } from './errors';
import { OutlineSection } from './types';

export function validateOutline(outline: unknown): asserts outline is OutlineSection[] {
  if (!Array.isArray(outline)) throw new AnalysisInputError('outline', 'outline must be an array of sections');
  const ids = new Set<string>();
  outline.forEach((s: unknown, i) => {
    const sec = s as Partial<OutlineSection> | null;
    if (!sec || typeof sec !== 'object')
      throw new AnalysisInputError(`outline[${i}]`, 'each section must be an object');
    if (typeof sec.id !== 'string' || sec.id === '')
      throw new AnalysisInputError(`outline[${i}].id`, 'each section needs a non-empty string id');
    if (ids.has(sec.id)) throw new AnalysisInputError(`outline[${i}].id`, `duplicate section id "${sec.id}"`);
    if (typeof sec.heading !== 'string')
      throw new AnalysisInputError(`outline[${i}].heading`, 'each section needs a string heading');
    if (
      sec.target_words !== undefined &&
      (typeof sec.target_words !== 'number' || !(sec.target_words >= 0 && sec.target_words <= 1_000_000))
    ) {
      throw new AnalysisInputError(`outline[${i}].target_words`, 'target_words must be a number between 0 and 1000000');
    }
    ids.add(sec.id);
  });
}

export function indexOfSection(outline: OutlineSection[], id: unknown, field = 'section_id'): number {
  if (typeof id !== 'string' || id === '')
    throw new AnalysisInputError(field, `${field} is required for this operation`);
  const i = outline.findIndex((s) => s.id === id);
  if (i < 0) throw new AnalysisInputError(field, `unknown section id "${id}"`);
  return i;
}
