<?php
/**
 * Adds the shipped tracker to front-end pages, deferred, with its data-* options and the noscript pixel.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Tracker;

use Sitebeam\Api_Client;
use Sitebeam\Contract;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Adds the shipped tracker to front-end pages, deferred, with its data-* options and the noscript pixel.
 */
final class Script_Loader {

	const HANDLE = 'sitebeam-tracker';

	/**
	 * Effective settings.
	 *
	 * @var array<string, mixed>
	 */
	private $settings;

	/**
	 * A loader for the given settings.
	 *
	 * @param array<string, mixed> $settings Effective settings.
	 */
	public function __construct( array $settings ) {
		$this->settings = $settings;
	}

	/**
	 * Enqueues the tracker when this page view is tracked.
	 */
	public function action_wp_enqueue_scripts() {
		if ( ! $this->should_track() ) {
			return;
		}
		// WordPress 6.3 added loading strategies; on 6.1 and 6.2 the tag filter adds defer itself.
		$has_strategy = version_compare( get_bloginfo( 'version' ), '6.3', '>=' );
		wp_enqueue_script(
			self::HANDLE,
			plugins_url( 'assets/js/sitebeam.min.js', SITEBEAM_PLUGIN_FILE ),
			array(),
			SITEBEAM_VERSION,
			$has_strategy ? array( 'strategy' => 'defer' ) : false
		);
		add_filter( 'script_loader_tag', array( $this, 'filter_script_loader_tag' ), 10, 2 );
		if ( Consent::required( $this->settings ) ) {
			wp_add_inline_script( self::HANDLE, Consent::inline_script(), 'before' );
		} elseif ( $this->settings['noscript'] && ! $this->visitor_opted_out() ) {
			// The pixel cannot wait for consent, so it is left out while consent is required.
			add_action( 'wp_footer', array( $this, 'action_wp_footer' ) );
		}
	}

	/**
	 * Adds defer and the data-* options to the tracker’s tag.
	 *
	 * @param string $tag    The script tag.
	 * @param string $handle Its handle.
	 */
	public function filter_script_loader_tag( $tag, $handle ) {
		if ( self::HANDLE !== $handle ) {
			return $tag;
		}
		$attributes = '';
		foreach ( $this->attributes() as $name => $value ) {
			$attributes .= sprintf( ' %s="%s"', esc_attr( $name ), esc_attr( $value ) );
		}
		if ( false === strpos( $tag, ' defer' ) ) {
			$attributes = ' defer' . $attributes;
		}
		return str_replace( '<script ', '<script' . $attributes . ' ', $tag );
	}

	/**
	 * Prints the noscript pixel.
	 */
	public function action_wp_footer() {
		$client     = new Api_Client( $this->settings['api_url'], '' );
		$attributes = $this->attributes();
		// As the tag's own pixel: an image's referrer cannot drop some parameters, so it is the origin alone unless the
		// site keeps them all; and no cookies of the instance's site.
		$policy = Kept_Query::keeps_all( $attributes[ Contract::TRACKER_ATTR_KEEP_QUERY ] ?? null )
			? ( $attributes[ Contract::TRACKER_ATTR_REFERRER_POLICY ] ?? 'no-referrer-when-downgrade' )
			: 'origin';
		printf(
			// phpcs:ignore PluginCheck.CodeAnalysis.ImageFunctions.NonEnqueuedImage -- the instance's tracker pixel for visitors without JavaScript, not a media file of the site: there is no attachment for wp_get_attachment_image() to print.
			'<noscript><img src="%s" alt="" width="1" height="1" style="display:none" crossorigin="anonymous" referrerpolicy="%s"></noscript>' . "\n",
			esc_url( $client->tracker_image_url( $this->settings['website'] ) ),
			esc_attr( $policy )
		);
	}

	/**
	 * The tracker’s data-* attributes.
	 *
	 * @return array<string, string>
	 */
	private function attributes() {
		$attributes = array(
			'data-api'     => untrailingslashit( $this->settings['api_url'] ),
			'data-website' => $this->settings['website'],
		);
		if ( '' !== $this->settings['keep_query'] ) {
			$attributes[ Contract::TRACKER_ATTR_KEEP_QUERY ] = $this->settings['keep_query'];
		}
		if ( ! $this->settings['respect_dnt'] ) {
			$attributes['data-respect-dnt'] = 'false';
		}
		if ( Consent::required( $this->settings ) ) {
			$attributes[ Contract::TRACKER_ATTR_CONSENT ] = '';
		}
		/**
		 * Filters the tracker's data-* attributes (see the snippet's options: data-exclude, data-hash…); the noscript
		 * pixel follows data-keep-query and data-referrer-policy too.
		 *
		 * @param array<string, string> $attributes Attribute name => value.
		 */
		return apply_filters( 'sitebeam_tracker_attributes', $attributes );
	}

	/**
	 * Whether this page view is tracked.
	 */
	private function should_track() {
		if ( ! $this->settings['tracker'] || '' === $this->settings['api_url'] ) {
			return false;
		}
		if ( is_admin() || is_feed() || is_preview() || is_customize_preview() || is_robots() || is_trackback() || wp_doing_ajax() || ( defined( 'REST_REQUEST' ) && REST_REQUEST ) ) {
			return false;
		}
		if ( is_user_logged_in() && array_intersect( (array) wp_get_current_user()->roles, (array) $this->settings['excluded_roles'] ) ) {
			return false;
		}
		return true;
	}

	/** The pixel cannot read the browser's privacy signals, so the server reads the headers for it. */
	private function visitor_opted_out() {
		if ( ! $this->settings['respect_dnt'] ) {
			return false;
		}
		$dnt = isset( $_SERVER['HTTP_DNT'] ) ? sanitize_text_field( wp_unslash( $_SERVER['HTTP_DNT'] ) ) : '';
		$gpc = isset( $_SERVER['HTTP_SEC_GPC'] ) ? sanitize_text_field( wp_unslash( $_SERVER['HTTP_SEC_GPC'] ) ) : '';
		return '1' === $dnt || '1' === $gpc;
	}
}
