import type { PromptSettings } from 'sitebeam/client';

export interface ModelAnswer {
  response: string[];
  score: number;
}

export interface Model {
  id: string;
  answer(message: string, settings: PromptSettings): ModelAnswer;
}
