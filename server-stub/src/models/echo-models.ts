import type { Model } from './model.js';

export const mockModel: Model = {
  id: 'mock',
  answer: (message) => ({ response: message.split(/\r?\n/), score: 0 }),
};

/** `log` writes the prompt to the server log; `writeLog` is the stub's log stream. */
export function logModel(writeLog: (entry: Record<string, unknown>) => void): Model {
  return {
    id: 'log',
    answer: (message, settings) => {
      writeLog({ level: 'INFO', type: 'prompt', model: 'log', message, settings });
      return { response: ['The prompt was written to the server log.'], score: 0 };
    },
  };
}
