<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Consent;

use Drupal\sitebeam\Contract;

/**
 * The consent checkbox an owner turned on: what a visitor must agree to.
 *
 * Contract: contact-protocol.md, "Consent" (the chat's is the same).
 */
final class ConsentCheckbox {

  /**
   * Constructs a checkbox.
   *
   * @param string $label
   *   The owner's text, plain.
   * @param string $policyHref
   *   The privacy policy's address for a link, or '' for none.
   * @param string $policyUrl
   *   The same as an absolute address, for a widget's consent-url; or ''.
   */
  public function __construct(
    public readonly string $label,
    public readonly string $policyHref,
    public readonly string $policyUrl = '',
  ) {}

  /**
   * Whether a posted value gives consent: JSON true or an accepted text.
   */
  public static function isGiven(mixed $value): bool {
    return $value === TRUE
      || (is_string($value) && in_array(strtolower(trim($value)), Contract::CONSENT_ACCEPTED_TEXTS, TRUE));
  }

  /**
   * The line of the owner's mail saying the visitor agreed, plain text.
   */
  public function mailLine(): string {
    return Contract::CONSENT_MAIL_LINE . $this->label;
  }

  /**
   * What the templates show: label, policy_url and absolute_policy_url.
   */
  public function toTemplate(): array {
    return ['label' => $this->label, 'policy_url' => $this->policyHref, 'absolute_policy_url' => $this->policyUrl];
  }

}
