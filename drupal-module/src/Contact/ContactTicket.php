<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Contact;

use Drupal\Component\Datetime\TimeInterface;
use Drupal\Core\PageCache\ResponsePolicy\KillSwitch;
use Drupal\Core\PrivateKey;
use Drupal\Core\Security\TrustedCallbackInterface;
use Drupal\Core\Site\Settings;
use Drupal\sitebeam\Contract;

/**
 * The contact protocol's fill-time ticket, signed with the site's secrets.
 */
class ContactTicket implements TrustedCallbackInterface {

  public function __construct(
    protected PrivateKey $privateKey,
    protected TimeInterface $time,
    protected KillSwitch $pageCacheKillSwitch,
  ) {}

  /**
   * {@inheritdoc}
   */
  public static function trustedCallbacks(): array {
    return ['hiddenField'];
  }

  /**
   * Lazy builder: a fresh ticket in every rendered form, never cached.
   */
  public function hiddenField(): array {
    $this->pageCacheKillSwitch->trigger();
    return HiddenInput::build(Contract::CONTACT_FIELD_TICKET, $this->issue()) + ['#cache' => ['max-age' => 0]];
  }

  /**
   * A ticket issued now, or at the given time in milliseconds.
   */
  public function issue(?int $issued_ms = NULL): string {
    $issued_ms ??= $this->nowMs();
    return $issued_ms . '.' . self::sign((string) $issued_ms, $this->secret());
  }

  /**
   * True when the ticket is genuine and its age within the protocol's bounds.
   *
   * A ticket from the future is younger than the minimum fill time, so the
   * allowed clock skew never makes one valid.
   */
  public function isValid(mixed $ticket): bool {
    if (!is_string($ticket) || !preg_match('/^(\d{1,16})\.([A-Za-z0-9_-]{43})$/D', $ticket, $parts)) {
      return FALSE;
    }
    if (!hash_equals(self::sign($parts[1], $this->secret()), $parts[2])) {
      return FALSE;
    }
    $age = $this->nowMs() - (int) $parts[1];
    return $age >= Contract::CONTACT_MIN_FILL_MS && $age <= Contract::CONTACT_TICKET_MAX_AGE_S * 1000;
  }

  /**
   * The base64url signature, without padding, of a time of issue.
   */
  public static function sign(string $issued_ms, string $secret): string {
    $mac = hash_hmac(Contract::CONTACT_TICKET_HASH, Contract::CONTACT_TICKET_HMAC_PREFIX . $issued_ms, $secret, TRUE);
    return rtrim(strtr(base64_encode($mac), '+/', '-_'), '=');
  }

  /**
   * The private key and the hash salt: neither ever leaves the site.
   */
  protected function secret(): string {
    return $this->privateKey->get() . Settings::getHashSalt();
  }

  /**
   * The current time in milliseconds since the epoch.
   */
  protected function nowMs(): int {
    return (int) floor($this->time->getCurrentMicroTime() * 1000);
  }

}
