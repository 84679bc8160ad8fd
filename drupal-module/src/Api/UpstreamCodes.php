<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Api;

/**
 * What the real service (cwcloud-api 3.15.24, 3.16.15) adds to the contract.
 *
 * Named as contract/sitebeam-contract.json will generate them into Contract
 * (issue #19, ts19): once Contract carries them, use those and delete this.
 */
final class UpstreamCodes {

  public const ERROR_NOT_CWAIAPI = 'not_cwaiapi';
  public const ERROR_ACCOUNT_NOT_CONFIRMED = 'account_not_confirmed';
  public const ERROR_CWAI_NOT_IMPLEMENED = 'cwai_not_implemened';
  public const UPSTREAM_VALIDATION_STATUS = 422;

  /**
   * Domains the service's address validator refuses, and every name under them.
   */
  public const SPECIAL_USE_DOMAINS = ['arpa', 'invalid', 'local', 'localhost', 'onion', 'test'];

}
