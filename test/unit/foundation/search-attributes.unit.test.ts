/** The search attributes every run carries (domain/search-attributes.ts). */
import { ownerAttributes, TASK_TYPE, USER_ID, workflowKind } from '../../../domain/search-attributes';
import * as workflows from '../../../workflows';

describe('search attributes of every workflow', () => {
  it("a run's kind is its function name in the task types' style", () => {
    expect(workflowKind({ name: 'blogSectionGenerateWorkflow' })).toBe('blog_section_generate');
    expect(workflowKind({ name: 'imageGenerateWorkflow' })).toBe('image_generate');
    expect(workflowKind({ name: 'outreachFollowUpWorkflow' })).toBe('outreach_follow_up');
    expect(workflowKind({ name: 'seoAnalyzeV2Workflow' })).toBe('seo_analyze_v2');
  });

  it('every exported workflow has a distinct kind', () => {
    const fns = Object.values(workflows).filter((w) => typeof w === 'function') as { name: string }[];
    const kinds = fns.map((w) => workflowKind(w));
    expect(fns.length).toBeGreaterThan(30);
    expect(new Set(kinds).size).toBe(kinds.length);
    for (const k of kinds) expect(k).toMatch(/^[a-z0-9]+(_[a-z0-9]+)*$/);
  });

  it('carries the owner and the kind', () => {
    const a = ownerAttributes('u-1', 'video_render');
    expect([a.get(USER_ID), a.get(TASK_TYPE)]).toEqual(['u-1', 'video_render']);
  });
});
