<?php
/**
 * Tools → Sitebeam outbox: the mail waiting for the instance and the mail given up, with Send now and Delete; the
 * Site Health test and the admin notice that say when mail has waited more than an hour.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Admin;

use Sitebeam\Mail\Outbox;
use Sitebeam\Mail\Outbox_Sender;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Tools → Sitebeam outbox: the mail waiting for the instance and the mail given up, with Send now and Delete; the
 * Site Health test and the admin notice that say when mail has waited more than an hour.
 */
final class Outbox_Page {

	const SLUG       = 'sitebeam-outbox';
	const ACTION     = 'sitebeam_outbox';
	const CAPABILITY = 'manage_options';

	/** Mail waiting longer than this is a problem the owner is told about. */
	const LATE_AFTER = HOUR_IN_SECONDS;

	/**
	 * Registers the screen, its action, the notice and the Site Health test.
	 */
	public static function boot() {
		add_action( 'admin_menu', array( self::class, 'action_admin_menu' ) );
		add_action( 'admin_post_' . self::ACTION, array( self::class, 'action_admin_post' ) );
		add_action( 'admin_notices', array( self::class, 'action_admin_notices' ) );
		add_filter( 'site_status_tests', array( self::class, 'filter_site_status_tests' ) );
	}

	/**
	 * Adds the screen under Tools.
	 */
	public static function action_admin_menu() {
		add_management_page( __( 'Sitebeam outbox', 'sitebeam' ), __( 'Sitebeam outbox', 'sitebeam' ), self::CAPABILITY, self::SLUG, array( self::class, 'render' ) );
	}

	/**
	 * Send now or Delete, for one mail or all: capability, nonce, then back to the screen with what was done.
	 */
	public static function action_admin_post() {
		if ( ! current_user_can( self::CAPABILITY ) ) {
			wp_die( esc_html__( 'You are not allowed to manage the Sitebeam outbox.', 'sitebeam' ), 403 );
		}
		check_admin_referer( self::ACTION );
		$id = isset( $_POST['id'] ) ? absint( $_POST['id'] ) : 0;
		$do = isset( $_POST['do'] ) ? sanitize_key( $_POST['do'] ) : '';
		if ( 'delete' === $do && $id > 0 ) {
			Notice::set( 'success', Outbox::delete( $id ) ? __( 'The mail was deleted from the outbox.', 'sitebeam' ) : __( 'That mail is no longer in the outbox.', 'sitebeam' ) );
		} elseif ( 'send' === $do ) {
			Outbox::make_due( $id > 0 ? $id : null );
			$done = Outbox_Sender::run();
			$left = Outbox::summary();
			Notice::set(
				$left['waiting'] + $left['failed'] > 0 ? 'warning' : 'success',
				$done['locked'] ? __( 'The outbox is being sent right now by another process: look again in a moment.', 'sitebeam' )
					/* translators: 1: mails sent, 2: mails still waiting, 3: mails given up. */
					: sprintf( __( 'Sent: %1$d. Still waiting: %2$d. Failed: %3$d.', 'sitebeam' ), $done['sent'], $left['waiting'], $left['failed'] )
			);
		}
		wp_safe_redirect( admin_url( 'tools.php?page=' . self::SLUG ) );
		exit;
	}

	/**
	 * The screen.
	 */
	public static function render() {
		if ( ! current_user_can( self::CAPABILITY ) ) {
			return;
		}
		$rows    = Outbox::rows();
		$summary = Outbox::summary();
		$states  = array(
			Outbox::WAITING => __( 'Waiting', 'sitebeam' ),
			Outbox::SENDING => __( 'Sending', 'sitebeam' ),
			Outbox::FAILED  => __( 'Failed', 'sitebeam' ),
		);
		echo '<div class="wrap sitebeam-outbox"><h1>' . esc_html__( 'Sitebeam outbox', 'sitebeam' ) . '</h1>';
		Notice::show();
		echo '<p>' . esc_html__( 'Mail the Sitebeam instance could not take when it was written (the instance was unreachable, too slow, busy or failing) waits here and is sent, oldest first, when the instance is back. Mail the instance refused for good is not kept: the send log on the settings page says why it failed.', 'sitebeam' ) . '</p>';
		printf(
			'<p class="sitebeam-outbox__summary">%s</p>',
			/* translators: 1: mails waiting, 2: mails given up. */
			esc_html( sprintf( __( 'Waiting: %1$d. Failed: %2$d.', 'sitebeam' ), $summary['waiting'], $summary['failed'] ) )
		);
		if ( ! $rows ) {
			echo '<p class="sitebeam-outbox__empty">' . esc_html__( 'The outbox is empty: every mail was handed to the instance.', 'sitebeam' ) . '</p></div>';
			return;
		}
		self::button( 0, 'send', __( 'Send all now', 'sitebeam' ), 'button-primary' );
		echo '<table class="widefat striped sitebeam-outbox__list"><thead><tr>';
		foreach ( array( __( 'Recipient', 'sitebeam' ), __( 'Subject', 'sitebeam' ), __( 'State', 'sitebeam' ), __( 'Tries', 'sitebeam' ), __( 'Last error', 'sitebeam' ), __( 'Next try', 'sitebeam' ), __( 'Actions', 'sitebeam' ) ) as $heading ) {
			echo '<th scope="col">' . esc_html( $heading ) . '</th>';
		}
		echo '</tr></thead><tbody>';
		foreach ( $rows as $row ) {
			if ( Outbox::FAILED === $row['state'] ) {
				$next = __( 'Never: given up', 'sitebeam' );
			} elseif ( (int) $row['next_try'] <= time() ) {
				$next = __( 'Now (at the next cron run)', 'sitebeam' );
			} else {
				/* translators: %s: a time span, e.g. "5 mins". */
				$next = sprintf( __( 'In %s', 'sitebeam' ), human_time_diff( time(), (int) $row['next_try'] ) );
			}
			printf(
				'<tr data-id="%d"><td>%s</td><td>%s</td><td>%s</td><td>%d</td><td>%s</td><td>%s</td><td>',
				(int) $row['id'],
				esc_html( $row['recipient'] ),
				esc_html( $row['subject'] ),
				esc_html( $states[ $row['state'] ] ?? $row['state'] ),
				(int) $row['tries'],
				esc_html( '' !== $row['last_error'] ? $row['last_error'] : __( 'Not tried yet: older mail is waiting.', 'sitebeam' ) ),
				esc_html( $next )
			);
			self::button( (int) $row['id'], 'send', __( 'Send now', 'sitebeam' ), 'button-secondary' );
			self::button( (int) $row['id'], 'delete', __( 'Delete', 'sitebeam' ), 'button-link-delete' );
			echo '</td></tr>';
		}
		echo '</tbody></table></div>';
	}

	/**
	 * One action's button, in its own form with the nonce.
	 *
	 * @param int    $id    The mail, or 0 for all.
	 * @param string $verb  send|delete.
	 * @param string $label The button's text.
	 * @param string $style A button class.
	 */
	private static function button( $id, $verb, $label, $style ) {
		printf( '<form method="post" action="%s" style="display:inline-block;margin-right:.5em">', esc_url( admin_url( 'admin-post.php' ) ) );
		printf( '<input type="hidden" name="action" value="%s"><input type="hidden" name="id" value="%d"><input type="hidden" name="do" value="%s">', esc_attr( self::ACTION ), (int) $id, esc_attr( $verb ) );
		wp_nonce_field( self::ACTION );
		printf( '<button type="submit" class="button %s">%s</button></form>', esc_attr( $style ), esc_html( $label ) );
	}

	/**
	 * Tells whoever manages the site, on every admin page, that mail has waited more than an hour.
	 */
	public static function action_admin_notices() {
		if ( ! current_user_can( self::CAPABILITY ) ) {
			return;
		}
		$late = self::late_since();
		if ( null === $late ) {
			return;
		}
		printf(
			'<div class="notice notice-error sitebeam-outbox-notice"><p>%s <a href="%s">%s</a></p></div>',
			/* translators: %s: a time span, e.g. "2 hours". */
			esc_html( sprintf( __( 'Sitebeam: mail has waited %s for the instance, which cannot take it.', 'sitebeam' ), human_time_diff( $late, time() ) ) ),
			esc_url( admin_url( 'tools.php?page=' . self::SLUG ) ),
			esc_html__( 'See the outbox', 'sitebeam' )
		);
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
	 * Critical when mail has waited more than an hour, else good.
	 *
	 * @return array<string, mixed> A Site Health result.
	 */
	public static function site_health_test() {
		$late    = self::late_since();
		$summary = Outbox::summary();
		$result  = array(
			'label'       => __( 'Sitebeam delivers the site’s mail', 'sitebeam' ),
			'status'      => 'good',
			'badge'       => array(
				'label' => __( 'Email', 'sitebeam' ),
				'color' => 'blue',
			),
			/* translators: %d: mails waiting. */
			'description' => '<p>' . esc_html( sprintf( __( 'No mail has waited more than an hour for the instance (waiting now: %d).', 'sitebeam' ), $summary['waiting'] ) ) . '</p>',
			'actions'     => '',
			'test'        => 'sitebeam_outbox',
		);
		if ( null !== $late ) {
			$result['status']         = 'critical';
			$result['badge']['color'] = 'red';
			/* translators: %s: a time span. */
			$result['label'] = sprintf( __( 'Site mail has waited %s for the Sitebeam instance', 'sitebeam' ), human_time_diff( $late, time() ) );
			/* translators: %d: mails waiting. */
			$result['description'] = '<p>' . esc_html( sprintf( __( '%d mails wait in the outbox because the instance cannot take them: password resets and notifications are late.', 'sitebeam' ), $summary['waiting'] ) ) . '</p>';
			$result['actions']     = sprintf( '<p><a href="%s">%s</a></p>', esc_url( admin_url( 'tools.php?page=' . self::SLUG ) ), esc_html__( 'See the outbox', 'sitebeam' ) );
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
