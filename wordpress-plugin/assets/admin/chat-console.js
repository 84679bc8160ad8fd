// Sitebeam → Chat: loads a model (polling its progress) and prompts it through the console's REST routes;
// wp.apiFetch adds the REST nonce. Answers are shown as text, never as HTML.
(() => {
  const form = document.getElementById('sitebeam-chat-console');
  if (!form) return;
  const { __, sprintf } = wp.i18n;
  const route = form.dataset.route;
  const loadStatus = form.querySelector('[data-sitebeam-load-status]');
  const promptStatus = form.querySelector('[data-sitebeam-prompt-status]');
  const answers = form.querySelector('[data-sitebeam-answers]');
  const model = () => form.elements.model.value;
  const wait = (seconds) => new Promise((wake) => setTimeout(wake, seconds * 1000));

  // The answer and its HTTP status; failures come back as WordPress's error JSON.
  async function call(options) {
    const response = await wp.apiFetch({ ...options, parse: false }).catch((failed) => failed);
    // Without an answer at all, apiFetch rejects with its own error object, not a Response.
    if (typeof response.json !== 'function') return { status: 0, body: response };
    return { status: response.status, body: await response.json().catch(() => ({})) };
  }

  async function load() {
    const name = model();
    for (let tries = 0; tries < 120; tries++) {
      const { status, body } = await call({ path: `${route}/models/${encodeURIComponent(name)}` });
      if (status === 200) {
        loadStatus.textContent = sprintf(__('%s is ready.', 'sitebeam'), name);
        return;
      }
      if (status !== 202) {
        loadStatus.textContent = body.message || __('The model could not be loaded.', 'sitebeam');
        return;
      }
      // The instance loads in the background and tells no progress: asking again would only start it again.
      if (body.state === 'started') {
        loadStatus.textContent = sprintf(
          __(
            '%s is loading on the instance, which tells no progress: prompt it in a few minutes.',
            'sitebeam',
          ),
          name,
        );
        return;
      }
      loadStatus.textContent = sprintf(__('Loading %s…', 'sitebeam'), name);
      await wait(1);
    }
  }

  function show(answer) {
    const turn = document.createElement('div');
    turn.className = 'sitebeam-console-answer';
    const title = document.createElement('h2');
    title.textContent = answer.model;
    turn.append(title);
    for (const line of answer.response) {
      const paragraph = document.createElement('p');
      paragraph.textContent = line;
      turn.append(paragraph);
    }
    if (typeof answer.score === 'number') {
      const score = document.createElement('p');
      score.className = 'sitebeam-console-score';
      score.textContent = sprintf(__('Score: %s', 'sitebeam'), String(answer.score));
      turn.append(score);
    }
    answers.prepend(turn);
  }

  form.querySelector('[data-sitebeam-load]').addEventListener('click', load);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const settings = {};
    for (const field of form.querySelectorAll('[name^="settings["]')) {
      if (field.value !== '') settings[field.name.slice(9, -1)] = field.value;
    }
    promptStatus.textContent = __('Waiting for the answer…', 'sitebeam');
    const { status, body } = await call({
      path: `${route}/prompt`,
      method: 'POST',
      data: { model: model(), message: form.elements.message.value, settings },
    });
    if (status === 200) {
      promptStatus.textContent = '';
      show(body);
      return;
    }
    promptStatus.textContent = body.message || __('The model could not answer.', 'sitebeam');
    if (body.code === 'model_loading') load();
  });
})();
