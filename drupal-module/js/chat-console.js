/**
 * @file
 * The chat console's "Load model" button: asks the instance to load the
 * chosen model through the site, then polls until it is ready, when the
 * instance reports progress (the real service only says that it started).
 */
((Drupal, drupalSettings, once) => {
  const pollMs = 1000;
  const maxPolls = 300;

  /** The model's state ("loading", "ready"), or an error text. */
  async function askToLoad(model) {
    const url = new URL(drupalSettings.sitebeamChatConsole.loadUrl, window.location.href);
    url.searchParams.set('model', model);
    const response = await fetch(url, { headers: { accept: 'application/json' } });
    const answer = await response.json().catch(() => ({}));
    return response.ok ? { state: answer.state } : { error: answer.error || `HTTP ${response.status}` };
  }

  Drupal.behaviors.sitebeamChatConsole = {
    attach(context) {
      once('sitebeam-chat-console', '[data-sitebeam-load]', context).forEach((button) => {
        const form = button.form;
        const status = form.querySelector('[data-sitebeam-load-status]');
        const picker = form.querySelector('select[name="model"]');
        button.addEventListener('click', async (event) => {
          event.preventDefault();
          const model = picker.value;
          const started = Date.now();
          button.disabled = true;
          try {
            for (let poll = 0; poll < maxPolls; poll++) {
              const { state, error } = await askToLoad(model);
              if (state === 'ready') {
                status.textContent = Drupal.t('@model is ready.', { '@model': model });
                return;
              }
              if (state === 'started') {
                status.textContent = Drupal.t(
                  'The instance started loading @model. It does not tell when the model is ready: send a prompt, it is answered once the model is loaded.',
                  { '@model': model },
                );
                return;
              }
              if (state !== 'loading') {
                status.textContent = Drupal.t('@model could not be loaded: @error', {
                  '@model': model,
                  '@error': error || Drupal.t('unexpected answer'),
                });
                return;
              }
              status.textContent = Drupal.t('Loading @model… (@seconds s)', {
                '@model': model,
                '@seconds': Math.round((Date.now() - started) / 1000),
              });
              await new Promise((wake) => setTimeout(wake, pollMs));
            }
            status.textContent = Drupal.t('@model is still loading. Try again later.', {
              '@model': model,
            });
          } catch {
            status.textContent = Drupal.t('The site could not be reached. Try again.');
          } finally {
            button.disabled = false;
          }
        });
      });
    },
  };
})(Drupal, drupalSettings, once);
