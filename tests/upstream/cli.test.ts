// The `sitebeam` command (snippet/dist) as a user runs it, against the stub and the real service:
// the same assertions on each, the right behaviour of issue #19.
import { afterAll, expect, it } from 'vitest';
import { runCli, temporaryHome } from '../../snippet/test/cli/run-cli.ts';
import { describeEachService } from './services.ts';

const home = temporaryHome();
afterAll(() => home.remove());

describeEachService('sitebeam CLI', (service, kind) => {
  const profile = () => `ci-${service().name.replace(/\W+/g, '-')}`;
  // Credentials from the environment, so each command stands apart from `login`'s outcome.
  const sitebeam = (args: string[], input?: string) =>
    runCli(args, {
      home: home.path,
      input,
      env: { SITEBEAM_API_URL: service().url, SITEBEAM_API_TOKEN: service().token },
    });
  const said = (result: { stdout: string; stderr: string }) => `${result.stdout}\n${result.stderr}`;

  it('login saves the profile once the service accepted the token, even where the AI API is absent', async () => {
    const login = await runCli(['login', '--profile', profile(), '--url', service().url], {
      home: home.path,
      input: `${service().token}\n`,
    });
    expect(login.code, said(login)).toBe(0);
    expect(said(login)).not.toMatch(/email sending switched off/i);
    const profiles = await runCli(['profiles'], { home: home.path });
    expect(profiles.stdout).toContain(profile());
  });

  it('email says where it went, without "undefined"', async () => {
    const sent = await sitebeam([
      'email',
      '--to',
      'someone@example.com',
      '--subject',
      'Hi',
      '--content',
      'Hello',
    ]);
    expect(sent.code, said(sent)).toBe(0);
    expect(sent.stdout).toContain('someone@example.com');
    expect(said(sent)).not.toMatch(/undefined|null/);
    expect((await service().sentMail()).at(-1)).toMatchObject({
      to: 'someone@example.com',
      subject: 'Hi',
    });
  });

  it('an address the service refuses is named, never "http_422"', async () => {
    const refused = await sitebeam([
      'email',
      '--to',
      'ana@shop.local',
      '--subject',
      'Hi',
      '--content',
      'x',
    ]);
    expect(refused.code, said(refused)).not.toBe(0);
    expect(refused.stderr).toMatch(/\bto\b|ana@shop\.local/);
    expect(said(refused)).not.toMatch(/http_422|HTTP 422/);
  });

  it('track prints what the service saw', async () => {
    const track = await sitebeam(['track', 'shop.example.com']);
    expect(track.code, said(track)).toBe(0);
    expect(track.stdout).toContain('shop.example.com');
  });

  it('a website name with "/" is refused with a clear message, not "404 http_404"', async () => {
    const track = await sitebeam(['track', 'shop.example.com/blog']);
    expect(track.code).not.toBe(0);
    expect(track.stderr).toMatch(/website/i);
    expect(said(track)).not.toMatch(/http_404/);
  });

  if (!kind.ai) {
    it('models says the AI API is not implemented here (not that email is off)', async () => {
      const models = await sitebeam(['models']);
      expect(models.code).not.toBe(0);
      expect(models.stderr).toMatch(/\bAI\b/);
      expect(models.stderr).toMatch(/not (implemented|available)/i);
      expect(models.stderr).not.toMatch(/email/i);
    });

    it('load says the AI API is absent (its release has no load route), not "404 http_404"', async () => {
      const load = await sitebeam(['load', 'log']);
      expect(load.code).toBe(5);
      expect(load.stderr).toContain('this instance has no AI API');
      expect(said(load)).not.toMatch(/http_404/);
    });
    return;
  }

  it('models lists them', async () => {
    const models = await sitebeam(['models']);
    expect(models.code, said(models)).toBe(0);
    expect(models.stdout).toContain(service().model);
  });

  it('load --wait ends, naming the model', async () => {
    const load = await sitebeam(['load', service().model, '--wait']);
    expect(load.code, said(load)).toBe(0);
    expect(said(load)).toContain(service().model);
    expect(said(load)).not.toMatch(/undefined/);
  });

  it('prompt prints the answer and no "score null"', async () => {
    const prompt = await sitebeam(['prompt', service().model, 'Hello']);
    expect(prompt.code, said(prompt)).toBe(0);
    expect(prompt.stdout.trim()).not.toBe('');
    expect(said(prompt)).not.toMatch(/score null|undefined/);
  });

  it('--set num_beams reaches the service as num_beans, or is refused by name', async () => {
    const prompt = await sitebeam(['prompt', service().model, 'Hello', '--set', 'num_beams=3']);
    if (prompt.code !== 0) {
      expect(prompt.stderr).toContain('num_beams');
      return;
    }
    // Upstream's `log` model echoes the settings it received.
    if (service().name.startsWith('upstream')) expect(prompt.stdout).toContain('num_beans=3');
  });
});
