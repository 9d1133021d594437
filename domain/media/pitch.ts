/**
 * Fundamental frequency of speech (pure): the median pitch of the voiced
 * frames of a mono signal, by normalised autocorrelation over 40 ms frames
 * (voiced = loud enough and clearly periodic). Used to report each speaker's
 * measured pitch, so "distinct voices" is a measurement, not a claim.
 */
export const MIN_F0 = 60;
export const MAX_F0 = 400;

export function medianPitchHz(samples: ArrayLike<number>, rate: number): number | undefined {
  const frame = Math.round(rate * 0.04);
  const minLag = Math.floor(rate / MAX_F0);
  const maxLag = Math.ceil(rate / MIN_F0);
  let peak = 0;
  for (let i = 0; i < samples.length; i++) peak = Math.max(peak, Math.abs(samples[i]));
  if (peak === 0) return undefined;
  const found: number[] = [];
  for (let start = 0; start + frame + maxLag < samples.length; start += frame) {
    let energy = 0;
    for (let i = 0; i < frame; i++) energy += samples[start + i] ** 2;
    if (Math.sqrt(energy / frame) < peak * 0.05) continue;
    const r: number[] = [];
    let best = 0;
    for (let lag = minLag; lag <= maxLag; lag++) {
      let num = 0;
      let e2 = 0;
      for (let i = 0; i < frame; i++) {
        num += samples[start + i] * samples[start + i + lag];
        e2 += samples[start + i + lag] ** 2;
      }
      r[lag] = num / Math.sqrt(energy * e2 || 1);
      best = Math.max(best, r[lag]);
    }
    // The shortest lag whose peak is nearly as strong as the best: multiples of the period correlate as well.
    let bestLag = 0;
    for (let lag = minLag + 1; lag < maxLag; lag++)
      if (r[lag] >= 0.9 * best && r[lag] >= r[lag - 1] && r[lag] >= r[lag + 1]) {
        bestLag = lag;
        break;
      }
    if (best > 0.6 && bestLag) found.push(rate / bestLag);
  }
  if (found.length < 3) return undefined;
  found.sort((a, b) => a - b);
  return Math.round(found[Math.floor(found.length / 2)] * 10) / 10;
}
