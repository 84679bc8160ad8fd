<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Traits;

use Drupal\sitebeam\Api\InstanceHost;
use GuzzleHttp\Client;
use PHPUnit\Framework\Attributes\After;

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
   * Points the module at the stub with $token; forgets its mail and faults.
   */
  protected function connectToStub(string $token = 'dev-token'): void {
    // The stub (the real service too, in these tests) listens on 127.0.0.1.
    $this->setSetting(InstanceHost::ALLOW_PRIVATE_HOSTS, TRUE);
    $this->config('sitebeam.settings')->set('base_url', $this->stubUrl())->set('api_token', $token)->save();
    $this->resetStub();
  }

  /**
   * Clears the faults the test set, so that none outlives it.
   *
   * @after
   */
  #[After]
  public function clearStubFaults(): void {
    $this->stub('DELETE', '/__stub/faults');
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
   * Makes the sends of the mail holding $marker answer $status, and no other.
   *
   * @param string $marker
   *   Text only the test's own mail holds (in its subject or body).
   * @param int $status
   *   The status its sends are answered.
   */
  protected function failEmailSends(string $marker, int $status): void {
    $this->injectFault(['method' => 'POST', 'path_prefix' => '/v1/email', 'status' => $status], ['body_contains' => $marker]);
  }

  /**
   * Sets a fault only the test's own call can take, so no other call sees it.
   *
   * @param array $fault
   *   The stub's fault rule: method, path_prefix, status, times...
   * @param array $match
   *   What only that call carries: ['body_contains' => text] or
   *   ['headers' => [name => value]].
   */
  protected function injectFault(array $fault, array $match): void {
    if (empty($match['body_contains']) && empty($match['headers'])) {
      throw new \InvalidArgumentException("A fault matches the test's own call: give body_contains or headers.");
    }
    $this->stub('PUT', '/__stub/faults', ['faults' => [$fault + $match]]);
  }

  /**
   * Replaces the stub's fault rules; each applies to POST /v1/email.
   *
   * @param array $rules
   *   The stub's fault rules, each with what only the test's own call
   *   carries: body_contains or headers.
   */
  protected function setStubFaults(array $rules): void {
    foreach ($rules as $rule) {
      if (empty($rule['body_contains']) && empty($rule['headers'])) {
        throw new \InvalidArgumentException("A fault matches the test's own call: give body_contains or headers.");
      }
    }
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

  /**
   * The files of a base64 zip (a mail's attachment): content by name, sorted.
   */
  protected function zipFiles(string $b64): array {
    $path = tempnam(sys_get_temp_dir(), 'sitebeam-zip');
    file_put_contents($path, base64_decode($b64));
    $zip = new \ZipArchive();
    $zip->open($path);
    $files = [];
    for ($i = 0; $i < $zip->numFiles; $i++) {
      $files[$zip->getNameIndex($i)] = $zip->getFromIndex($i);
    }
    $zip->close();
    unlink($path);
    ksort($files);
    return $files;
  }

}
