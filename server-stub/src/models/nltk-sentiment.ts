// `nltksentiment`: NLTK's VADER analyser, through vader-sentiment (a maintained port of the same
// lexicon and rules), so the compound score matches NLTK's for ordinary sentences.
import vader from 'vader-sentiment';
import type { Model } from './model.js';
import { sentimentAnswer } from './sentiment-line.js';

/** VADER's own convention: compound ≥ 0.05 is positive, ≤ -0.05 negative. */
const VADER_NEUTRAL_BAND = 0.05;

export const nltkSentiment: Model = {
  id: 'nltksentiment',
  answer: (message) =>
    sentimentAnswer(
      vader.SentimentIntensityAnalyzer.polarity_scores(message).compound,
      VADER_NEUTRAL_BAND,
    ),
};
