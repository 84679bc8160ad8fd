<?php
/**
 * Tells the owner when WordPress refuses the saved instance URL (a private or loopback address, an unusual port): a
 * critical Site Health result and an admin notice, each with the fix. An upgrade that began refusing such a URL must
 * never break a working site silently.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Admin;

use Sitebeam\Base_Url;
use Sitebeam\Safe_Url;
use Sitebeam\Settings;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Tells the owner when WordPress refuses the saved instance URL: a critical Site Health result and an admin notice.
 */
final class Instance_Url_Check {

	const TEST = 'sitebeam_instance_url';

	/** The answer is remembered this long for the URL it was found for: the notice must not ask DNS on every page. */
	const REMEMBER_S = 10 * MINUTE_IN_SECONDS;

	/**
	 * Registers the notice and the Site Health test.
	 */
	public static function boot() {
		add_action( is_multisite() ? 'network_admin_notices' : 'admin_notices', array( self::class, 'action_admin_notices' ) );
		add_filter( 'site_status_tests', array( self::class, 'filter_site_status_tests' ) );
	}

	/**
	 * Why WordPress refuses the saved instance URL, with the fix, or null when it does not (or no URL is saved, or
	 * wp-config.php allows private hosts).
	 *
	 * @return string|null
	 */
	public static function problem() {
		$url = (string) Settings::get()['api_url'];
		if ( '' === $url || null !== Base_Url::problem( $url ) || Settings::allows_private_hosts() ) {
			return null;
		}
		return self::remembered_problem( $url );
	}

	/**
	 * Why WordPress refuses a URL, with the fix, or null: asked once per URL every REMEMBER_S seconds.
	 *
	 * @param string $url An instance URL.
	 * @return string|null
	 */
	public static function remembered_problem( $url ) {
		$key   = 'sitebeam_url_check_' . md5( $url );
		$found = is_multisite() ? get_site_transient( $key ) : get_transient( $key );
		if ( ! is_string( $found ) ) {
			$reason = Safe_Url::refusal( $url );
			$found  = null === $reason ? '' : Safe_Url::explain( $url, $reason );
			if ( is_multisite() ) {
				set_site_transient( $key, $found, self::REMEMBER_S );
			} else {
				set_transient( $key, $found, self::REMEMBER_S );
			}
		}
		return '' === $found ? null : $found;
	}

	/**
	 * The notice, for whoever may change the settings.
	 */
	public static function action_admin_notices() {
		if ( ! current_user_can( Settings_Page::capability() ) ) {
			return;
		}
		$problem = self::problem();
		if ( null === $problem ) {
			return;
		}
		printf(
			'<div class="notice notice-error sitebeam-instance-url-notice"><p><strong>%s</strong> %s <a href="%s">%s</a></p></div>',
			esc_html__( 'Sitebeam sends nothing:', 'sitebeam' ),
			esc_html( $problem ),
			esc_url( Settings_Page::url() ),
			esc_html__( 'Open the Sitebeam settings', 'sitebeam' )
		);
	}

	/**
	 * Adds the Site Health test.
	 *
	 * @param array<string, mixed> $tests Site Health's tests.
	 * @return array<string, mixed>
	 */
	public static function filter_site_status_tests( $tests ) {
		$tests['direct'][ self::TEST ] = array(
			'label' => __( 'Sitebeam instance URL', 'sitebeam' ),
			'test'  => array( self::class, 'site_health_test' ),
		);
		return $tests;
	}

	/**
	 * Critical while WordPress refuses the saved URL, else good.
	 *
	 * @return array<string, mixed> A Site Health result.
	 */
	public static function site_health_test() {
		return self::site_health_result( self::problem() );
	}

	/**
	 * The Site Health result for a problem.
	 *
	 * @param string|null $problem What problem() said.
	 * @return array<string, mixed>
	 */
	public static function site_health_result( $problem ) {
		$result = array(
			'label'       => __( 'WordPress lets Sitebeam reach its instance', 'sitebeam' ),
			'status'      => 'good',
			'badge'       => array(
				'label' => __( 'Email', 'sitebeam' ),
				'color' => 'blue',
			),
			'description' => '<p>' . esc_html__( 'The saved instance URL is one WordPress sends requests to (or wp-config.php allows a private instance).', 'sitebeam' ) . '</p>',
			'actions'     => '',
			'test'        => self::TEST,
		);
		if ( null !== $problem ) {
			$result['status']         = 'critical';
			$result['badge']['color'] = 'red';
			$result['label']          = __( 'WordPress refuses to send to the Sitebeam instance URL', 'sitebeam' );
			$result['description']    = '<p>' . esc_html( $problem ) . '</p><p>' . esc_html__( 'Until it is fixed, the site’s mail and contact messages cannot be delivered through Sitebeam.', 'sitebeam' ) . '</p>';
			$result['actions']        = sprintf( '<p><a href="%s">%s</a></p>', esc_url( Settings_Page::url() ), esc_html__( 'Open the Sitebeam settings', 'sitebeam' ) );
		}
		return $result;
	}
}
