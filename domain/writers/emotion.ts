/**
 * Words that carry emotion or intensity, for the engagement model's
 * `emotional_engagement` (a density measure, not sentiment analysis).
 */
export const EMOTION_WORDS: ReadonlySet<string> = new Set(
  (
    'love loved loving excited exciting thrilled proud grateful thankful amazing awesome incredible powerful surprising ' +
    'surprised shocking fear afraid worried worry frustrated frustrating struggle struggling stuck win wins winning ' +
    'success successful fail failed failure mistake mistakes secret proven breakthrough inspiring inspired happy ' +
    'joy delighted angry annoyed urgent finally honest honestly brave bold fearless hope hopeful dream dreams ' +
    'celebrate celebrating congratulations wow unforgettable remarkable stunning brilliant painful pain lonely ' +
    'overwhelmed overwhelming confident confidence curious passion passionate heart care caring trust trusted ' +
    'beautiful ugly risk risky danger dangerous lucky unlucky wonderful terrible horrible best worst favorite ' +
    'favourite essential critical game-changer transform transformed transformative relief relieved energized ' +
    'motivated motivating rewarding surprise'
  ).split(' '),
);
