/**
 * One name per task type (domain/task-types.ts): the routes declare in the task catalogue exactly the task types the
 * platform runs — each of TASK_TYPES and every writer kind and batch — so no workflow runs under a name no route
 * declares and no route declares a name no workflow runs under.
 */
import { PLATFORM_ROUTES } from '../../../api/routes';
import { catalogue } from '../../../api/kernel/task-catalogue';
import { TASK_TYPES } from '../../../domain/task-types';
import { WRITER_KINDS, WriterPlatform } from '../../../domain/writers/types';
import { writerBatchTaskType, writerTaskType } from '../../../domain/writers/task-types';

describe('task catalogue', () => {
  it('declares exactly the task types the platform runs', () => {
    expect(PLATFORM_ROUTES.length).toBeGreaterThan(100); // the routes (and their declarations) are loaded
    const writers = (Object.keys(WRITER_KINDS) as WriterPlatform[]).flatMap((p) => [
      ...WRITER_KINDS[p].map((k) => writerTaskType(p, k)),
      writerBatchTaskType(p),
    ]);
    const declared = catalogue().map((d) => d.type);
    expect(new Set(declared).size).toBe(declared.length);
    expect([...declared].sort()).toEqual([...TASK_TYPES, ...writers].sort());
  });
});
