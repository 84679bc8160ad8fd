// Every text the chat shows, in English and French. A site overrides any of them with a
// `data-text-<key>` attribute on the element (key in kebab case, e.g. `data-text-start-over`);
// `%` stands for a number (the score).
import { textFor } from '../form/texts.js';

const en = {
  log: 'Conversation',
  message: 'Your message',
  model: 'Model',
  send: 'Send',
  startOver: 'Start over',
  privacy: 'Privacy policy',
  you: 'You',
  score: 'Score: %',
  sending: 'Waiting for the answer…',
  warming: 'The model is warming up, trying again shortly…',
  stillWarming: 'The model is still warming up. Please send your message again in a minute.',
  required: 'Please type a message.',
  tooLong: 'The message is too long.',
  consent: 'Please tick the consent box.',
  invalid: 'The message could not be sent as it is. Please change it.',
  network: 'Not sent: you seem to be offline. Please try again.',
  rateLimited: 'Not sent: too many messages. Please wait a minute and try again.',
  closedToday: 'The chat is closed for today. Please come back tomorrow.',
  server: 'Not sent: the chat had a problem. Please try again.',
  notConfigured: 'The chat is not available right now.',
  forbidden: 'Not sent: please reload the page and try again.',
};

export type ChatTextKey = keyof typeof en;

const fr: typeof en = {
  log: 'Conversation',
  message: 'Votre message',
  model: 'Modèle',
  send: 'Envoyer',
  startOver: 'Recommencer',
  privacy: 'Politique de confidentialité',
  you: 'Vous',
  score: 'Score : %',
  sending: 'En attente de la réponse…',
  warming: 'Le modèle démarre, nouvel essai dans un instant…',
  stillWarming: 'Le modèle démarre encore. Renvoyez votre message dans une minute.',
  required: 'Veuillez saisir un message.',
  tooLong: 'Le message est trop long.',
  consent: 'Veuillez cocher la case de consentement.',
  invalid: 'Le message ne peut pas être envoyé tel quel. Veuillez le modifier.',
  network: 'Non envoyé : vous semblez hors ligne. Veuillez réessayer.',
  rateLimited: 'Non envoyé : trop de messages. Patientez une minute et réessayez.',
  closedToday: 'Le chat est fermé pour aujourd’hui. Revenez demain.',
  server: 'Non envoyé : le chat a eu un problème. Veuillez réessayer.',
  notConfigured: 'Le chat n’est pas disponible pour le moment.',
  forbidden: 'Non envoyé : veuillez recharger la page et réessayer.',
};

export const chatTexts: Record<string, typeof en> = { en, fr };

/** The text for `key` as `host` should show it: its own attribute, else the page language's. */
export const chatText = (host: HTMLElement, key: ChatTextKey, value = ''): string =>
  textFor(host, key, value, chatTexts);
