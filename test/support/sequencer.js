/**
 * The order jest starts test files in (jest.config.js testSequencer). Jest's own order runs the longest files first
 * from the durations it cached on this machine; a fresh machine (CI's clean clone) has none, and jest then orders by
 * file size, which started the fuzzer (the longest file by far, a small one) about 8 minutes into the run, after which
 * it ran alone for most of its 14 minutes. Files with no cached duration here get the one recorded below (seconds,
 * measured with three files at a time; update it when a file's time changes a lot), so the long files start first
 * on any machine; the others keep jest's order.
 */
const Sequencer = require('@jest/test-sequencer').default;

const RECORDED_SECONDS = {
  'test/e2e/fuzz/openapi.e2e.test.ts': 850,
  'test/e2e/api/spec-conformance.e2e.test.ts': 200,
  'test/e2e/clients/generated-clients.e2e.test.ts': 170,
  'test/int/video/crash.int.test.ts': 150,
  'test/int/video/short-1080p.int.test.ts': 145,
  'test/e2e/quality/content.e2e.test.ts': 135,
  'test/e2e/api/authorization-sweep.e2e.test.ts': 125,
  'test/int/projections/crash.int.test.ts': 95,
  'test/int/calendar/publishing.int.test.ts': 80,
  'test/int/media/captions-ocr.int.test.ts': 75,
  'test/int/outreach/sending.int.test.ts': 70,
};

class LongFilesFirst extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const recorded = (t) => {
      if (t.duration != null) return undefined;
      const rel = t.path
        .slice(t.context.config.rootDir.length + 1)
        .split('\\')
        .join('/');
      return RECORDED_SECONDS[rel];
    };
    const first = sorted.filter((t) => recorded(t) !== undefined).sort((a, b) => recorded(b) - recorded(a));
    return [...first, ...sorted.filter((t) => recorded(t) === undefined)];
  }
}

module.exports = LongFilesFirst;
