<?php
/**
 * What tells the owner, away from the outbox, that mail is not going through: an admin notice when mail failed (each
 * user hides it until another mail fails) or has waited more than an hour, and the Site Health test.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Admin;

use Sitebeam\Mail\Delivery_State;
use Sitebeam\Mail\Outbox;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * The admin notices and the Site Health test of the outbox.
 */
final class Outbox_Alerts {

	/** Mail waiting longer than this is a problem the owner is told about. */
	const LATE_AFTER = HOUR_IN_SECONDS;

	const DISMISS_ACTION = 'sitebeam_outbox_dismiss';

	/** User meta: the failures' mark (Outbox_Listing::failures()) when the user hid the notice. */
	const DISMISSED_META = 'sitebeam_outbox_dismissed';

	/**
	 * Registers the notices, their dismissal and the Site Health test.
	 */
	public static function boot() {
		add_action( 'admin_notices', array( self::class, 'action_admin_notices' ) );
		add_action( 'admin_post_' . self::DISMISS_ACTION, array( self::class, 'action_dismiss' ) );
		add_filter( 'site_status_tests', array( self::class, 'filter_site_status_tests' ) );
	}

	/**
	 * On every admin page, for whoever manages the site: mail that failed, and mail that has waited over an hour.
	 */
	public static function action_admin_notices() {
		if ( ! current_user_can( Outbox_Page::CAPABILITY ) ) {
			return;
		}
		$failures = Outbox_Listing::failures();
		if ( null !== $failures && ! self::dismissed( $failures['mark'] ) ) {
			$dismiss = wp_nonce_url( add_query_arg( 'action', self::DISMISS_ACTION, admin_url( 'admin-post.php' ) ), self::DISMISS_ACTION );
			printf(
				'<div class="notice notice-error is-dismissible sitebeam-failure-notice" data-dismiss="%s"><p><strong>%s</strong> %s</p><p><a href="%s">%s</a> · <a href="%s">%s</a></p></div>',
				esc_url( add_query_arg( 'ajax', '1', $dismiss ) ),
				esc_html__( 'Sitebeam:', 'sitebeam' ),
				esc_html( self::failures_sentence( $failures ) ),
				esc_url( Outbox_Page::url( array( 'view' => Outbox_Listing::VIEW_FAILED ) ) ),
				esc_html__( 'See the failed mail', 'sitebeam' ),
				esc_url( $dismiss ),
				esc_html__( 'Hide until another mail fails', 'sitebeam' )
			);
			// WordPress's own close button hides the notice on the page; this makes it stay hidden.
			wp_print_inline_script_tag( "document.addEventListener('click',function(e){var b=e.target.closest('.sitebeam-failure-notice .notice-dismiss');if(b){fetch(b.parentNode.getAttribute('data-dismiss'),{credentials:'same-origin'});}});" );
		}
		$late = self::late_since();
		if ( null !== $late ) {
			printf(
				'<div class="notice notice-error sitebeam-outbox-notice"><p>%s <a href="%s">%s</a></p></div>',
				/* translators: %s: a time span, e.g. "2 hours". */
				esc_html( sprintf( __( 'Sitebeam: mail has waited %s for the instance, which cannot take it.', 'sitebeam' ), human_time_diff( $late, time() ) ) ),
				esc_url( Outbox_Page::url() ),
				esc_html__( 'See the outbox', 'sitebeam' )
			);
		}
	}

	/**
	 * Hides the failure notice for the current user until another mail fails; back to where they were.
	 */
	public static function action_dismiss() {
		if ( ! current_user_can( Outbox_Page::CAPABILITY ) ) {
			wp_die( esc_html__( 'You are not allowed to manage the Sitebeam outbox.', 'sitebeam' ), 403 );
		}
		check_admin_referer( self::DISMISS_ACTION );
		$failures = Outbox_Listing::failures();
		if ( null !== $failures ) {
			update_user_meta( get_current_user_id(), self::DISMISSED_META, $failures['mark'] );
		}
		if ( isset( $_GET['ajax'] ) ) {
			wp_send_json_success();
		}
		wp_safe_redirect( wp_get_referer() ? wp_get_referer() : admin_url() );
		exit;
	}

	/**
	 * Whether the current user hid the notice since the newest failure.
	 *
	 * @param string $mark The failures' mark now.
	 */
	private static function dismissed( $mark ) {
		$hidden = explode( ':', (string) get_user_meta( get_current_user_id(), self::DISMISSED_META, true ) . ':' );
		$now    = explode( ':', $mark );
		return (int) $hidden[0] >= (int) $now[0] && (int) $hidden[1] >= (int) $now[1];
	}

	/**
	 * "3 mails failed and were not delivered (since 13:19). The last cause: …".
	 *
	 * @param array{count: int, since: int, cause: string} $failures Outbox_Listing::failures().
	 */
	private static function failures_sentence( array $failures ) {
		$sentence = sprintf(
			/* translators: 1: number of mails, 2: a time. */
			_n( '%1$s mail failed and was not delivered (since %2$s).', '%1$s mails failed and were not delivered (since %2$s).', $failures['count'], 'sitebeam' ),
			number_format_i18n( $failures['count'] ),
			Outbox_Words::time( $failures['since'] )
		);
		if ( '' !== $failures['cause'] ) {
			/* translators: %s: an error, in words. */
			$sentence .= ' ' . sprintf( __( 'The last cause: %s', 'sitebeam' ), $failures['cause'] );
		}
		return $sentence;
	}

	/**
	 * Adds the Site Health test.
	 *
	 * @param array<string, mixed> $tests Site Health's tests.
	 * @return array<string, mixed>
	 */
	public static function filter_site_status_tests( $tests ) {
		$tests['direct']['sitebeam_outbox'] = array(
			'label' => __( 'Sitebeam outbox', 'sitebeam' ),
			'test'  => array( self::class, 'site_health_test' ),
		);
		return $tests;
	}

	/**
	 * Critical when mail failed or has waited more than an hour; recommended while the instance fails; else good.
	 *
	 * @return array<string, mixed> A Site Health result.
	 */
	public static function site_health_test() {
		$failures = Outbox_Listing::failures();
		$late     = self::late_since();
		$state    = Delivery_State::get();
		$waiting  = Outbox_Listing::counts()[ Outbox_Listing::VIEW_WAITING ];
		$result   = array(
			'label'       => __( 'Sitebeam delivers the site’s mail', 'sitebeam' ),
			'status'      => 'good',
			'badge'       => array(
				'label' => __( 'Email', 'sitebeam' ),
				'color' => 'blue',
			),
			/* translators: %s: number of mails waiting. */
			'description' => '<p>' . esc_html( sprintf( __( 'No mail has failed, and none has waited more than an hour for the instance (waiting now: %s).', 'sitebeam' ), number_format_i18n( $waiting ) ) ) . '</p>',
			'actions'     => '',
			'test'        => 'sitebeam_outbox',
		);
		$said = array();
		if ( null !== $failures ) {
			$result['label'] = sprintf(
				/* translators: %s: number of mails. */
				_n( '%s site mail failed and was not delivered', '%s site mails failed and were not delivered', $failures['count'], 'sitebeam' ),
				number_format_i18n( $failures['count'] )
			);
			$said[] = self::failures_sentence( $failures ) . ' ' . __( 'Failed mail stays in the outbox until you send it again or delete it.', 'sitebeam' );
		}
		if ( null !== $late ) {
			if ( null === $failures ) {
				/* translators: %s: a time span. */
				$result['label'] = sprintf( __( 'Site mail has waited %s for the Sitebeam instance', 'sitebeam' ), human_time_diff( $late, time() ) );
			}
			/* translators: %s: number of mails. */
			$said[] = sprintf( _n( '%s mail waits in the outbox because the instance cannot take it: password resets and notifications are late.', '%s mails wait in the outbox because the instance cannot take them: password resets and notifications are late.', $waiting, 'sitebeam' ), number_format_i18n( $waiting ) );
		}
		if ( null !== $failures || null !== $late ) {
			$result['status'] = 'critical';
		} elseif ( null !== $state['failing_since'] ) {
			$result['status'] = 'recommended';
			$result['label']  = __( 'The Sitebeam instance fails: new mail waits in the outbox', 'sitebeam' );
			/* translators: 1: a time, 2: the last error in words, 3: number of mails waiting. */
			$said[] = sprintf( __( 'The instance has failed since %1$s (%2$s). Waiting now: %3$s.', 'sitebeam' ), Outbox_Words::time( (int) $state['failing_since'] ), $state['last_error'], number_format_i18n( $waiting ) );
		}
		if ( array() !== $said ) {
			$result['badge']['color'] = 'critical' === $result['status'] ? 'red' : 'orange';
			$result['description']    = '<p>' . implode( '</p><p>', array_map( 'esc_html', $said ) ) . '</p>';
			$result['actions']        = sprintf( '<p><a href="%s">%s</a></p>', esc_url( Outbox_Page::url( null !== $failures ? array( 'view' => Outbox_Listing::VIEW_FAILED ) : array() ) ), esc_html__( 'See the outbox', 'sitebeam' ) );
		}
		return $result;
	}

	/**
	 * Since when the oldest unsent mail waits, when that is more than an hour ago; else null.
	 */
	private static function late_since() {
		$oldest = Outbox::summary()['oldest'];
		return null !== $oldest && $oldest < time() - self::LATE_AFTER ? $oldest : null;
	}
}
