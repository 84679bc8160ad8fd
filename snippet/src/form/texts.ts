// Every text the widget shows, in English and French. A site overrides any of them with a
// `data-text-<key>` attribute (key in kebab case, e.g. `data-text-not-configured`); `%` stands
// for the field's label.

const en = {
  name: 'Name',
  email: 'Email',
  subject: 'Subject (optional)',
  message: 'Message',
  send: 'Send',
  honeypot: 'Leave this field empty',
  privacy: 'Privacy policy',
  sending: 'Sending…',
  sent: 'Thank you, your message was sent.',
  required: 'Please fill in “%”.',
  emailFormat: 'Please enter a valid email address.',
  tooLong: '“%” is too long.',
  invalid: 'Please check “%”.',
  consent: 'Please tick the consent box.',
  network: 'Not sent: you seem to be offline. Please try again.',
  rateLimited: 'Not sent: too many messages. Please try again later.',
  server: 'Not sent: the server had a problem. Please try again.',
  notConfigured: 'Not sent: this form is not set up yet. Please contact us another way.',
  spam: 'Not sent: that was too fast. Please wait a few seconds and try again.',
  forbidden: 'Not sent: please reload the page and try again.',
};

export type TextKey = keyof typeof en;

const fr: typeof en = {
  name: 'Nom',
  email: 'E-mail',
  subject: 'Objet (facultatif)',
  message: 'Message',
  send: 'Envoyer',
  honeypot: 'Laissez ce champ vide',
  privacy: 'Politique de confidentialité',
  sending: 'Envoi…',
  sent: 'Merci, votre message a été envoyé.',
  required: 'Veuillez remplir « % ».',
  emailFormat: 'Veuillez saisir une adresse e-mail valide.',
  tooLong: '« % » est trop long.',
  invalid: 'Veuillez vérifier « % ».',
  consent: 'Veuillez cocher la case de consentement.',
  network: 'Non envoyé : vous semblez hors ligne. Veuillez réessayer.',
  rateLimited: 'Non envoyé : trop de messages. Veuillez réessayer plus tard.',
  server: 'Non envoyé : le serveur a eu un problème. Veuillez réessayer.',
  notConfigured: 'Non envoyé : ce formulaire n’est pas encore configuré. Contactez-nous autrement.',
  spam: 'Non envoyé : trop rapide. Patientez quelques secondes et réessayez.',
  forbidden: 'Non envoyé : veuillez recharger la page et réessayer.',
};

export const texts: Record<string, typeof en> = { en, fr };

/**
 * The text for `key` as `host` should show it: its own attribute, else the page language's.
 * Another widget passes its own `table` (same languages, its own keys).
 */
export function textFor<Table extends Record<string, string> = typeof en>(
  host: HTMLElement,
  key: keyof Table & string,
  label = '',
  table = texts as unknown as Record<string, Table>,
): string {
  const own = host.dataset[`text${key.charAt(0).toUpperCase()}${key.slice(1)}`];
  const lang = host.closest('[lang]');
  const language = lang ? (lang.getAttribute('lang') as string).slice(0, 2).toLowerCase() : '';
  const shown = own || ((table[language] || table.en) as Table)[key];
  return (shown as string).replace('%', label);
}
