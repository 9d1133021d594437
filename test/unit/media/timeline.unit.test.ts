import {
  fitSpeech,
  LEAD_SECONDS,
  MAX_TEMPO,
  PAUSE_SECONDS,
  renderPercent,
  sceneFrames,
  speechSeconds,
} from '../../../domain/media/timeline';

describe('scene timeline', () => {
  it('speech that fits keeps its tempo and the planned frames; sentences follow each other with a pause', () => {
    const fit = fitSpeech(
      [
        { text: 'a', seconds: 2 },
        { text: 'b', seconds: 3 },
      ],
      10,
      25,
    );
    expect(fit.tempo).toBe(1);
    expect(fit.frames).toBe(250);
    expect(fit.seconds).toBe(10);
    expect(fit.sentences[0]).toEqual({ text: 'a', start: LEAD_SECONDS, end: LEAD_SECONDS + 2 });
    expect(fit.sentences[1].start).toBeCloseTo(LEAD_SECONDS + 2 + PAUSE_SECONDS, 9);
    expect(fit.sentences[1].end).toBeCloseTo(LEAD_SECONDS + 5 + PAUSE_SECONDS, 9);
  });

  it('speech a little too long is sped up to fit; much too long is sped up to the limit and lengthens the scene', () => {
    const near = fitSpeech([{ text: 'a', seconds: 10 }], 10, 25);
    expect(near.tempo).toBeGreaterThan(1);
    expect(near.tempo).toBeLessThanOrEqual(MAX_TEMPO);
    expect(near.frames).toBe(250);
    expect(near.sentences[0].end).toBeLessThanOrEqual(10);
    const far = fitSpeech([{ text: 'a', seconds: 30 }], 10, 25);
    expect(far.tempo).toBe(MAX_TEMPO);
    expect(far.seconds).toBeGreaterThan(10);
    expect(far.sentences[0].end).toBeLessThanOrEqual(far.seconds);
  });

  it('frames, speech length and render percent', () => {
    expect(sceneFrames(7.5, 25)).toBe(188);
    expect(sceneFrames(0, 25)).toBe(1);
    expect(speechSeconds([])).toBe(0);
    expect(speechSeconds([1, 2, 3])).toBeCloseTo(6 + 2 * PAUSE_SECONDS, 9);
    expect(renderPercent([10, 30], 0, 0)).toBe(0);
    expect(renderPercent([10, 30], 0, 1)).toBe(22);
    expect(renderPercent([10, 30], 1, 1)).toBe(90);
    expect(fitSpeech([], 5, 25)).toEqual({ tempo: 1, frames: 125, seconds: 5, sentences: [] });
  });
});
