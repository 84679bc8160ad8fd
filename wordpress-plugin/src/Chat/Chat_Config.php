<?php
/**
 * What the site owner chose for the visitors' chat, read from the plugin's settings: a visitor never changes it.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Chat;

use Sitebeam\Contract;
use Sitebeam\Settings;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * What the site owner chose for the visitors' chat, read from the plugin's settings.
 */
final class Chat_Config {

	/**
	 * Messages a day when the owner never chose a daily limit: a new site is never an open model proxy on the
	 * owner's quota. 0, set on purpose, means no limit.
	 */
	const DEFAULT_DAILY_LIMIT = Contract::CHAT_DAILY_LIMIT;

	/**
	 * The models visitors may use, the first being the default; none when the chat is off.
	 *
	 * @return string[]
	 */
	public static function models() {
		$settings = Settings::get();
		if ( empty( $settings['chat_enabled'] ) ) {
			return array();
		}
		return array_values( array_unique( array_filter( (array) $settings['chat_models'], array( Prompt_Settings::class, 'is_model_identifier' ) ) ) );
	}

	/**
	 * The prompt settings sent with every visitor's message; any the API would refuse are left out.
	 *
	 * @return array<string, int|float|bool>
	 */
	public static function prompt_settings() {
		$settings = (array) Settings::get()['chat_settings'];
		return array_diff_key( $settings, Prompt_Settings::problems( $settings ) );
	}

	/**
	 * Messages allowed per visitor per Contract::CHAT_RATE_LIMIT_WINDOW_S seconds.
	 */
	public static function rate_limit() {
		$limit = (int) Settings::get()['chat_rate_limit'];
		return $limit >= 1 ? $limit : Contract::CHAT_RATE_LIMIT_COUNT;
	}

	/**
	 * Messages the whole site (on multisite the network) may send to the model per UTC day; 0 for no limit, which
	 * the owner sets on purpose. Unset (an empty value, which earlier versions saved for "no limit" until the owner
	 * typed one) reads as DEFAULT_DAILY_LIMIT: an owner who never chose gets the default.
	 */
	public static function daily_limit() {
		$limit = Settings::get()['chat_daily_limit'] ?? '';
		if ( '' === $limit || null === $limit || ! is_numeric( $limit ) ) {
			return self::DEFAULT_DAILY_LIMIT;
		}
		return max( 0, (int) $limit );
	}

	/**
	 * Whether visitors can chat: a model allowed.
	 */
	public static function is_on() {
		return array() !== self::models();
	}
}
