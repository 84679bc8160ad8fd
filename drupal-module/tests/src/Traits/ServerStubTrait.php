<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Traits;

use GuzzleHttp\Client;

/**
 * Talks to the real server stub that tests/drupal/kernel.sh started.
 */
trait ServerStubTrait {

  /**
   * The address of the stub tests/drupal/kernel.sh started.
   */
  protected function stubUrl(): string {
    $url = (string) getenv('STUB_URL');
    if ($url === '') {
      $this->fail('STUB_URL is not set: run the kernel tests through tests/drupal/kernel.sh, which starts the server stub.');
    }
    return rtrim($url, '/');
  }

  /**
   * The stub's own account, token dev-token (server-stub accounts.ts).
   */
  protected static function stubAccount(): string {
    return 'dev@example.com';
  }

  /**
   * Turns the stub account's APIs on or off.
   */
  protected function setStubAccountApis(array $apis): void {
    $this->stub('PATCH', '/__stub/accounts/' . self::stubAccount(), $apis);
  }

  /**
   * Calls the stub; returns the decoded JSON answer.
   */
  protected function stub(string $method, string $path, ?array $json = NULL): array {
    $options = ['http_errors' => TRUE, 'timeout' => 10];
    if ($json !== NULL) {
      $options['json'] = $json;
    }
    $body = (string) (new Client())->request($method, $this->stubUrl() . $path, $options)->getBody();
    return $body === '' ? [] : (array) json_decode($body, TRUE);
  }

  /**
   * The accepted /v1/email bodies, oldest first.
   */
  protected function stubEmails(): array {
    return array_column($this->stub('GET', '/__stub/emails')['emails'] ?? [], 'message');
  }

  /**
   * Forgets sent emails and faults, and enables both APIs of the account.
   */
  protected function resetStub(): void {
    $this->stub('DELETE', '/__stub/emails');
    $this->stub('DELETE', '/__stub/faults');
    $this->setStubAccountApis(['email_api' => TRUE, 'ai_api' => TRUE]);
  }

  /**
   * Makes email sends answer with this status.
   *
   * @param int $status
   *   The status.
   * @param array $match
   *   What picks the test's own requests out: body_contains (a marker in
   *   the subject, say) or headers ({name: exact value}), as the stub's
   *   fault rules take them. Empty: every send.
   */
  protected function failEmailSends(int $status, array $match = []): void {
    $this->setStubFaults([['status' => $status] + $match]);
  }

  /**
   * Replaces the stub's fault rules; each applies to POST /v1/email.
   */
  protected function setStubFaults(array $rules): void {
    $faults = array_map(static fn (array $rule): array => $rule + ['method' => 'POST', 'path_prefix' => '/v1/email'], $rules);
    $this->stub('PUT', '/__stub/faults', ['faults' => $faults]);
  }

  /**
   * A new stub account with the email API; returns its token.
   *
   * A test's own token lets its faults match only its own requests.
   */
  protected function createStubAccount(): string {
    $email = 'kernel-' . bin2hex(random_bytes(6)) . '@example.com';
    return (string) $this->stub('POST', '/__stub/accounts', ['email' => $email, 'email_api' => TRUE, 'ai_api' => TRUE])['token'];
  }

}
