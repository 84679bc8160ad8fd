// A relay every runtime can serve for the conformance runners (plain JavaScript, the build
// imported by a relative path, as workerd and Deno load it): POST /__case makes a fresh contact or
// chat handler from the JSON settings it carries; every other request goes to that handler.
import { createChatHandler, createRelayHandler } from '../../dist/relay/index.js';

let current = async () => new Response('No case prepared.\n', { status: 503 });

async function prepare(request) {
  const { kind, settings, chat } = await request.json();
  const config = { ...settings, log: () => {} };
  current = kind === 'chat' ? createChatHandler(config, chat) : createRelayHandler(config);
  return new Response(null, { status: 204 });
}

export default {
  // workerd calls fetch(request, env); deno serve calls fetch(request, info).
  fetch(request, second) {
    if (new URL(request.url).pathname === '/__case') return prepare(request);
    return current(request, { clientIp: second?.remoteAddr?.hostname });
  },
};
