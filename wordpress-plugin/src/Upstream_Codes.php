<?php
/**
 * What the real service (cwcloud-api 3.15.24, 3.16.15) adds to the contract.
 *
 * @package Sitebeam
 */

namespace Sitebeam;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * What the real service (cwcloud-api 3.15.24, 3.16.15) adds to the contract, named as
 * contract/sitebeam-contract.json will generate them into Contract (issue #19, ts19): once Contract carries them,
 * use those and delete this class (the Drupal module's UpstreamCodes is its twin until then).
 */
final class Upstream_Codes {

	const ERROR_NOT_CWAIAPI           = 'not_cwaiapi';
	const ERROR_ACCOUNT_NOT_CONFIRMED = 'account_not_confirmed';
	const ERROR_CWAI_MODEL_NOTFOUND   = 'cwai_model_notfound';
	const ERROR_CWAI_NOT_IMPLEMENED   = 'cwai_not_implemened';
	const ERROR_CWAIAPI_NOT_ENABLED   = 'cwaiapi_not_enabled';
	const UPSTREAM_CE_RELEASE         = '3.16.15';
	const UPSTREAM_VALIDATION_STATUS  = 422;

	/** Domains the service's address validator refuses, and every name under them. */
	const SPECIAL_USE_DOMAINS = array( 'arpa', 'invalid', 'local', 'localhost', 'onion', 'test' );

	/** Names a client accepts for the service's own setting name, and sends under that name. */
	const PROMPT_SETTING_ALIASES = array( 'num_beams' => 'num_beans' );
}
