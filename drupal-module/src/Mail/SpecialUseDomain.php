<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Mail;

use Drupal\sitebeam\Contract;

/**
 * The service's address rule on special-use domains (RFC 6761: .test, .local…).
 */
final class SpecialUseDomain {

  /**
   * The special-use domain an address is at, such as "test"; NULL for none.
   */
  public static function of(string $email): ?string {
    $at = strrpos($email, '@');
    $labels = explode('.', strtolower(rtrim(substr($email, $at === FALSE ? 0 : $at + 1), '.')));
    $top = end($labels);
    return in_array($top, Contract::SPECIAL_USE_DOMAINS, TRUE) ? $top : NULL;
  }

}
