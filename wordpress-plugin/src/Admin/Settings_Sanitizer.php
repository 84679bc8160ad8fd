<?php
/**
 * Whitelists and sanitizes the settings form; keeps the stored value, with a notice, when a value is refused.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Admin;

use Sitebeam\Base_Url;
use Sitebeam\Chat\Chat_Config;
use Sitebeam\Chat\Model_List;
use Sitebeam\Chat\Prompt_Settings;
use Sitebeam\Contact\Field_Rules;
use Sitebeam\Endpoint\Consent_Rule;
use Sitebeam\Settings;
use Sitebeam\Tracker\Kept_Query;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Whitelists and sanitizes the settings form; keeps the stored value, with a notice, when a value is refused.
 */
final class Settings_Sanitizer {

	const CHECKBOXES = array( 'tracker', 'respect_dnt', 'noscript', 'wait_for_consent', 'route_mail', 'fallback', 'chat_enabled', 'chat_site_admins' );

	/** The highest chat rate limit the form takes, in messages per visitor per minute. */
	const CHAT_RATE_LIMIT_MAX = 1000;

	/**
	 * Sanitizes the posted settings. The token is never among them: Token_Store writes it, once the form's
	 * capability and nonce are checked, so no other write of this option (a subsite's, on a network) can change it.
	 *
	 * @param mixed $input The posted `sitebeam_settings` array.
	 * @return array<string, mixed> What is stored.
	 */
	public static function sanitize( $input ) {
		$input  = is_array( $input ) ? $input : array();
		$stored = Settings::read( Settings::OPTION, array() );
		$stored = is_array( $stored ) ? $stored : array();
		$clean  = array_merge( Settings::defaults(), $stored );

		if ( isset( $input['api_url'] ) ) {
			// Checked as typed: esc_url_raw() would drop what makes a URL unfit instead of refusing it.
			$url     = trim( (string) $input['api_url'] );
			$problem = '' === $url ? null : Base_Url::problem( $url );
			if ( null === $problem ) {
				$clean['api_url'] = untrailingslashit( $url );
			} else {
				/* translators: %s: why the URL was refused. */
				self::refuse( 'api_url', sprintf( __( '%s The previous URL was kept.', 'sitebeam' ), $problem ) );
			}
		}
		if ( isset( $input['website'] ) ) {
			$clean['website'] = mb_substr( sanitize_text_field( (string) $input['website'] ), 0, 255 );
		}
		if ( isset( $input['keep_query'] ) ) {
			$kept = Kept_Query::parse( (string) $input['keep_query'] );
			if ( isset( $kept['value'] ) ) {
				$clean['keep_query'] = $kept['value'];
			} else {
				/* translators: %s: what was typed as a parameter name. */
				self::refuse( 'keep_query', sprintf( __( '“%s” is not a query parameter name (letters, digits, “_”, “.”, “-”, “[]”, and * for any characters). The previous parameters were kept.', 'sitebeam' ), sanitize_text_field( $kept['refused'] ) ) );
			}
		}
		foreach ( self::CHECKBOXES as $key ) {
			$clean[ $key ] = ! empty( $input[ $key ] );
		}
		$roles                   = isset( $input['excluded_roles'] ) ? array_map( 'sanitize_key', (array) $input['excluded_roles'] ) : array();
		$clean['excluded_roles'] = array_values( array_intersect( $roles, array_keys( wp_roles()->get_names() ) ) );
		if ( isset( $input['contact_to'] ) ) {
			// Checked as typed: sanitize_email() would turn "a@x.test\r\nBcc: b@y.test" into some other valid address.
			$email       = trim( (string) $input['contact_to'] );
			$special_use = Field_Rules::special_use_domain( $email );
			if ( null !== $special_use ) {
				/* translators: 1: the refused address, 2: its domain, such as "test". */
				self::refuse( 'contact_to', sprintf( __( 'The contact recipient %1$s is at .%2$s, a special-use domain the Sitebeam service refuses: enter an address at a real domain. The previous address was kept.', 'sitebeam' ), esc_html( $email ), $special_use ) );
			} elseif ( '' === $email || Field_Rules::is_address( $email ) ) {
				$clean['contact_to'] = $email;
			} else {
				self::refuse( 'contact_to', __( 'The contact recipient must be one valid email address. The previous address was kept.', 'sitebeam' ) );
			}
		}
		if ( isset( $input['contact_success'] ) ) {
			$clean['contact_success'] = sanitize_text_field( (string) $input['contact_success'] );
		}
		$clean = self::sanitize_chat( $input, $clean );
		$clean = self::sanitize_consent( $input, $clean );
		$clean = self::sanitize_outbox( $input, $clean );
		foreach ( array_keys( Settings::CONSTANTS ) as $key ) {
			if ( Settings::is_fixed( $key ) ) {
				$clean[ $key ] = $stored[ $key ] ?? Settings::defaults()[ $key ];
			}
		}
		// The page shown after saving lists the models afresh: the owner may have just changed them on the instance.
		Model_List::forget();
		return array_intersect_key( $clean, Settings::defaults() );
	}

	/**
	 * The outbox's lifetime (hours), caps (mails, megabytes), contact share (percent) and retention of failed mail
	 * (days): whole numbers in their range; a refused value keeps the stored one.
	 *
	 * @param array<string, mixed> $input Posted settings.
	 * @param array<string, mixed> $clean Settings so far.
	 * @return array<string, mixed>
	 */
	private static function sanitize_outbox( array $input, array $clean ) {
		$ranges = array(
			/* translators: 1: smallest, 2: largest. */
			'outbox_lifetime'  => array( 1, 720, __( 'The outbox’s lifetime must be a whole number of hours from %1$d to %2$d. The previous value was kept.', 'sitebeam' ) ),
			/* translators: 1: smallest, 2: largest. */
			'outbox_max_mails' => array( 1, 100000, __( 'The outbox’s number of mails must be a whole number from %1$d to %2$d. The previous value was kept.', 'sitebeam' ) ),
			/* translators: 1: smallest, 2: largest. */
			'outbox_max_mb'    => array( 1, 1024, __( 'The outbox’s size limit must be a whole number of megabytes from %1$d to %2$d. The previous value was kept.', 'sitebeam' ) ),
			/* translators: 1: smallest, 2: largest. */
			'outbox_contacts'  => array( 0, 90, __( 'The contact messages’ share of the outbox must be a whole percentage from %1$d to %2$d. The previous value was kept.', 'sitebeam' ) ),
			/* translators: 1: smallest, 2: largest. */
			'outbox_keep_days' => array( 1, 365, __( 'The days failed mail is kept must be a whole number from %1$d to %2$d. The previous value was kept.', 'sitebeam' ) ),
		);
		foreach ( $ranges as $key => list( $min, $max, $message ) ) {
			if ( ! isset( $input[ $key ] ) ) {
				continue;
			}
			$value = trim( (string) $input[ $key ] );
			if ( ctype_digit( $value ) && (int) $value >= $min && (int) $value <= $max ) {
				$clean[ $key ] = (int) $value;
			} else {
				self::refuse( $key, sprintf( $message, $min, $max ) );
			}
		}
		return $clean;
	}

	/**
	 * The chat's models (the default first), prompt settings and rate limit; a refused value keeps the stored one.
	 *
	 * @param array<string, mixed> $input Posted settings.
	 * @param array<string, mixed> $clean Settings so far, the stored ones for what is not posted.
	 * @return array<string, mixed>
	 */
	private static function sanitize_chat( array $input, array $clean ) {
		$models = array();
		foreach ( isset( $input['chat_models'] ) ? (array) $input['chat_models'] : array() as $model ) {
			if ( Prompt_Settings::is_model_identifier( $model ) ) {
				$models[] = $model;
			} else {
				/* translators: %s: what was posted as a model. */
				self::refuse( 'chat_models', sprintf( __( '“%s” is not a model identifier (letters, digits, “_”, “.” and “-”): it was not allowed.', 'sitebeam' ), sanitize_text_field( is_scalar( $model ) ? (string) $model : '' ) ) );
			}
		}
		$default = $input['chat_default_model'] ?? '';
		if ( in_array( $default, $models, true ) ) {
			$models = array_merge( array( $default ), array_diff( $models, array( $default ) ) );
		}
		$clean['chat_models'] = array_values( array_unique( $models ) );

		$typed                  = Prompt_Settings::from_form( $input['chat_settings'] ?? array() );
		$kept                   = array_intersect_key( Prompt_Settings::with_service_names( (array) $clean['chat_settings'] ), $typed['refused'] );
		$clean['chat_settings'] = array_merge( $typed['settings'], $kept );
		foreach ( $typed['refused'] as $setting => $rule ) {
			/* translators: %s: the rule the prompt setting breaks. */
			self::refuse( 'chat_settings_' . $setting, sprintf( __( '%s The previous value was kept.', 'sitebeam' ), $rule ) );
		}

		if ( isset( $input['chat_rate_limit'] ) ) {
			$limit = trim( (string) $input['chat_rate_limit'] );
			if ( ctype_digit( $limit ) && (int) $limit >= 1 && (int) $limit <= self::CHAT_RATE_LIMIT_MAX ) {
				$clean['chat_rate_limit'] = (int) $limit;
			} else {
				/* translators: %d: the highest rate limit. */
				self::refuse( 'chat_rate_limit', sprintf( __( 'The chat rate limit must be a whole number of messages from 1 to %d. The previous limit was kept.', 'sitebeam' ), self::CHAT_RATE_LIMIT_MAX ) );
			}
		}
		if ( isset( $input['chat_daily_limit'] ) ) {
			$limit = trim( (string) $input['chat_daily_limit'] );
			if ( '' === $limit ) {
				$clean['chat_daily_limit'] = Chat_Config::DEFAULT_DAILY_LIMIT;
			} elseif ( ctype_digit( $limit ) ) {
				$clean['chat_daily_limit'] = (int) $limit;
			} else {
				/* translators: %d: the default daily limit. */
				self::refuse( 'chat_daily_limit', sprintf( __( 'The daily chat limit must be a whole number of messages: 0 for no limit, or empty for the default, %d. The previous limit was kept.', 'sitebeam' ), Chat_Config::DEFAULT_DAILY_LIMIT ) );
			}
		}
		return $clean;
	}

	/**
	 * The consent checkboxes' labels (plain text on one line) and policy links (http or https); a refused link keeps
	 * the stored one.
	 *
	 * @param array<string, mixed> $input Posted settings.
	 * @param array<string, mixed> $clean Settings so far, the stored ones for what is not posted.
	 * @return array<string, mixed>
	 */
	private static function sanitize_consent( array $input, array $clean ) {
		foreach ( array( Consent_Rule::CONTACT, Consent_Rule::CHAT ) as $endpoint ) {
			if ( isset( $input[ $endpoint . '_consent' ] ) ) {
				$clean[ $endpoint . '_consent' ] = sanitize_text_field( (string) $input[ $endpoint . '_consent' ] );
			}
			if ( ! isset( $input[ $endpoint . '_policy' ] ) ) {
				continue;
			}
			$url  = trim( (string) $input[ $endpoint . '_policy' ] );
			$safe = esc_url_raw( $url, array( 'http', 'https' ) );
			if ( '' === $url || '' !== (string) wp_parse_url( $safe, PHP_URL_HOST ) ) {
				$clean[ $endpoint . '_policy' ] = $safe;
			} else {
				self::refuse( $endpoint . '_policy', __( 'The privacy policy link must be a web address starting with https:// or http://. The previous link was kept.', 'sitebeam' ) );
			}
		}
		return $clean;
	}

	/**
	 * Reports a refused value on the settings page.
	 *
	 * @param string $field   Setting key.
	 * @param string $message Notice text.
	 */
	private static function refuse( $field, $message ) {
		add_settings_error( Settings::OPTION, 'sitebeam_' . $field, $message, 'error' );
	}
}
