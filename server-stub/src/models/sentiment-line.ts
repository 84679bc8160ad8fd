import type { ModelAnswer } from './model.js';

/** The answer shape of the sentiment models: one line naming the label, and the score. */
export function sentimentAnswer(score: number, neutralBand: number): ModelAnswer {
  const rounded = Math.round(score * 10_000) / 10_000;
  const label =
    rounded >= neutralBand ? 'positive' : rounded <= -neutralBand ? 'negative' : 'neutral';
  return { response: [`The predicted sentiment is: ${label}, score: ${rounded}`], score: rounded };
}
