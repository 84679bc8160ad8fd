// The models the stub serves and their loading state (contract §4: load, then prompt).
import { errorCodes } from 'sitebeam/client';
import { ContractError } from '../errors.js';
import { logModel, mockModel } from './echo-models.js';
import type { Model } from './model.js';
import { nltkSentiment } from './nltk-sentiment.js';
import { textblobSentiment } from './textblob-sentiment.js';

export const availableModels = ['mock', 'log', 'nltksentiment', 'textblobsentiment'] as const;

type LoadState = 'unloaded' | 'loading' | 'ready';

export class ModelRegistry {
  private readonly models = new Map<string, Model>();
  private readonly states = new Map<string, LoadState>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    listed: string[],
    private readonly loadDelayMs: number,
    writeLog: (entry: Record<string, unknown>) => void,
  ) {
    const all = [mockModel, logModel(writeLog), nltkSentiment, textblobSentiment];
    for (const model of all) {
      if (!listed.includes(model.id)) continue;
      this.models.set(model.id, model);
      this.states.set(model.id, loadDelayMs === 0 ? 'ready' : 'unloaded');
    }
  }

  list(): string[] {
    return [...this.models.keys()];
  }

  /** Starts loading if needed; answers the state now. Unknown model → 404 cwai_model_notfound. */
  load(id: string): 'loading' | 'ready' {
    const state = this.states.get(id);
    if (state === undefined) {
      throw new ContractError(errorCodes.cwaiModelNotFound, `model: "${id}" is not listed`);
    }
    if (state === 'unloaded') {
      this.states.set(id, 'loading');
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.states.set(id, 'ready');
      }, this.loadDelayMs);
      this.timers.add(timer);
      return 'loading';
    }
    return state;
  }

  /** The model, ready to answer; 400 if not listed, 503 (and loading starts) if not loaded yet. */
  ready(id: string): Model {
    const model = this.models.get(id);
    if (!model) {
      throw new ContractError(
        errorCodes.modelNotFound,
        `model: "${id}" is not one of ${this.list().join(', ')}`,
      );
    }
    if (this.load(id) !== 'ready') {
      throw new ContractError(errorCodes.modelLoading, `model: "${id}" is still loading`, {
        headers: { 'retry-after': String(Math.max(1, Math.ceil(this.loadDelayMs / 1000))) },
      });
    }
    return model;
  }

  close() {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
