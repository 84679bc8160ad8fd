<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Contact;

use Drupal\Core\Access\CsrfTokenGenerator;
use Drupal\Core\Security\TrustedCallbackInterface;
use Drupal\Core\Session\AccountInterface;

/**
 * The contact form's CSRF token, for visitors who have a session.
 *
 * Anonymous visitors have no session to bind a token to (and their pages are
 * cached whole), so for them the endpoint relies on the same-origin check,
 * the honeypot, the fill time and flood control.
 */
class ContactFormToken implements TrustedCallbackInterface {

  public const FIELD = 'form_token';
  public const VALUE = 'sitebeam_contact';

  public function __construct(
    protected CsrfTokenGenerator $csrfToken,
    protected AccountInterface $currentUser,
  ) {}

  /**
   * {@inheritdoc}
   */
  public static function trustedCallbacks(): array {
    return ['hiddenField'];
  }

  /**
   * Lazy builder: the hidden input, rendered per session, never cached.
   */
  public function hiddenField(): array {
    if ($this->currentUser->isAnonymous()) {
      return ['#cache' => ['contexts' => ['user.roles:anonymous']]];
    }
    return HiddenInput::build(self::FIELD, $this->csrfToken->get(self::VALUE)) + ['#cache' => ['max-age' => 0]];
  }

  /**
   * True when the post carries a valid token or needs none.
   */
  public function isValid(mixed $token): bool {
    if ($this->currentUser->isAnonymous()) {
      return TRUE;
    }
    return is_string($token) && $this->csrfToken->validate($token, self::VALUE);
  }

}
