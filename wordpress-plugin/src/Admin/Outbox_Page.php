<?php
/**
 * Tools → Sitebeam outbox: a status line (is mail going through, how much waits, when it is tried next), the list of
 * waiting and failed mail, one mail in full, and the owner's actions, each of which says what it did or why not.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Admin;

use Sitebeam\Mail\Delivery_State;
use Sitebeam\Mail\Outbox;
use Sitebeam\Mail\Outbox_Sender;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Tools → Sitebeam outbox: a status line, the list of waiting and failed mail, one mail in full, and the owner's
 * actions. Every change is a POST or a link with a nonce, checked with the capability; Delete, and Send again for mail
 * the instance refused for good, first show a page that asks (no JavaScript needed).
 */
final class Outbox_Page {

	const SLUG       = 'sitebeam-outbox';
	const ACTION     = 'sitebeam_outbox';
	const CAPABILITY = 'manage_options';

	const DO_SEND           = 'send';
	const DO_SEND_AGAIN     = 'send-again';
	const DO_DELETE         = 'delete';
	const DO_DELETE_FAILED  = 'delete-failed';
	const DO_DELETE_CONTACT = 'delete-contact';
	const DO_TRY_NOW        = 'try-now';

	/** The query arguments of a list request (a search, a bulk action) that the list's own address leaves out. */
	const LIST_REQUEST_ARGS = array( '_wp_http_referer', '_wpnonce', 'action', 'action2', Outbox_List_Table::IDS );

	/** Seconds Send now on ticked rows, or Try now, sends for before it leaves the rest to the background. */
	const SEND_BUDGET = 20;

	/**
	 * The list of the current request, made on the screen's load so that Screen Options knows its columns.
	 *
	 * @var Outbox_List_Table|null
	 */
	private static $table;

	/**
	 * Registers the screen, its actions, the notice and the Site Health test.
	 */
	public static function boot() {
		add_action( 'admin_menu', array( self::class, 'action_admin_menu' ) );
		add_action( 'admin_post_' . self::ACTION, array( self::class, 'action_admin_post' ) );
		add_filter( 'set_screen_option_' . Outbox_List_Table::PER_PAGE_OPTION, array( self::class, 'filter_set_screen_option' ), 10, 3 );
		Outbox_Alerts::boot();
	}

	/**
	 * Adds the screen under Tools.
	 */
	public static function action_admin_menu() {
		$hook = add_management_page( __( 'Sitebeam outbox', 'sitebeam' ), __( 'Sitebeam outbox', 'sitebeam' ), self::CAPABILITY, self::SLUG, array( self::class, 'render' ) );
		if ( false !== $hook ) {
			add_action( 'load-' . $hook, array( self::class, 'action_load' ) );
		}
	}

	/**
	 * The screen's address, with query arguments.
	 *
	 * @param array<string, mixed> $args Query arguments.
	 */
	public static function url( array $args = array() ) {
		return add_query_arg( array_map( 'rawurlencode', array_map( 'strval', $args ) ), admin_url( 'tools.php?page=' . self::SLUG ) );
	}

	/**
	 * The page that asks before an action: Delete, Send again, Delete all failed….
	 *
	 * @param string $verb One of the DO_ constants.
	 * @param int[]  $ids  The mails it is for; none for a whole view.
	 */
	public static function confirm_url( $verb, array $ids = array() ) {
		return self::url( array( 'confirm' => $verb ) + ( array() === $ids ? array() : array( Outbox_List_Table::IDS => implode( ',', array_map( 'intval', $ids ) ) ) ) );
	}

	/**
	 * A link that acts at once (with its nonce): Send now on one row.
	 *
	 * @param string               $verb One of the DO_ constants.
	 * @param array<string, mixed> $args More query arguments.
	 */
	public static function action_url( $verb, array $args = array() ) {
		return wp_nonce_url(
			add_query_arg(
				array(
					'action' => self::ACTION,
					'do'     => $verb,
				) + $args,
				admin_url( 'admin-post.php' )
			),
			self::ACTION
		);
	}

	/**
	 * Keeps the page size Screen Options sets, within 1 to 999.
	 *
	 * @param mixed  $keep   What WordPress would keep.
	 * @param string $option The option.
	 * @param mixed  $value  The value set.
	 */
	public static function filter_set_screen_option( $keep, $option, $value ) {
		$value = (int) $value;
		return $value >= 1 && $value <= 999 ? $value : $keep;
	}

	/**
	 * Before the screen is drawn: bulk actions of the list (then back to it), a search's tidy address, the page size
	 * in Screen Options, the styles.
	 */
	public static function action_load() {
		if ( ! current_user_can( self::CAPABILITY ) ) {
			return;
		}
		self::$table = new Outbox_List_Table();
		$verb        = self::$table->current_action();
		if ( in_array( $verb, array( self::DO_SEND, self::DO_DELETE ), true ) ) {
			check_admin_referer( 'bulk-sitebeam-mails' );
			self::bulk( $verb, self::requested_ids() );
		}
		// phpcs:ignore WordPress.Security.NonceVerification.Recommended -- only tidies the address of a search.
		if ( ! empty( $_GET['_wp_http_referer'] ) && isset( $_SERVER['REQUEST_URI'] ) ) {
			wp_safe_redirect( remove_query_arg( self::LIST_REQUEST_ARGS, wp_unslash( $_SERVER['REQUEST_URI'] ) ) ); // phpcs:ignore WordPress.Security.ValidatedSanitizedInput.InputNotSanitized -- a URL of this screen, kept as WordPress's own lists keep it.
			exit;
		}
		add_screen_option(
			'per_page',
			array(
				'label'   => __( 'Mails per page', 'sitebeam' ),
				'default' => Outbox_List_Table::PER_PAGE,
				'option'  => Outbox_List_Table::PER_PAGE_OPTION,
			)
		);
		wp_enqueue_style( 'sitebeam-outbox', plugins_url( 'assets/admin/outbox.css', SITEBEAM_PLUGIN_FILE ), array(), SITEBEAM_VERSION );
	}

	/**
	 * The ids a request names (ticked rows, or one mail), as positive integers.
	 *
	 * @return int[]
	 */
	private static function requested_ids() {
		// Read by callers that checked the nonce, or to show a confirmation; each made an integer below.
		$raw = isset( $_REQUEST[ Outbox_List_Table::IDS ] ) ? wp_unslash( $_REQUEST[ Outbox_List_Table::IDS ] ) : array(); // phpcs:ignore WordPress.Security.NonceVerification.Recommended, WordPress.Security.ValidatedSanitizedInput.InputNotSanitized
		$ids = is_array( $raw ) ? $raw : explode( ',', (string) $raw );
		return array_values( array_unique( array_filter( array_map( 'absint', $ids ) ) ) );
	}

	/**
	 * Send now on ticked rows (as many as the time allows, the rest left due for the background), or Delete on them
	 * (which first asks).
	 *
	 * @param string $verb DO_SEND or DO_DELETE.
	 * @param int[]  $ids  The ticked rows.
	 */
	private static function bulk( $verb, array $ids ) {
		$back = remove_query_arg( self::LIST_REQUEST_ARGS, wp_get_referer() ? wp_get_referer() : self::url() );
		if ( array() === $ids ) {
			Notice::set( 'warning', __( 'No mail was ticked: tick the mails to act on first.', 'sitebeam' ) );
		} elseif ( self::DO_DELETE === $verb ) {
			$back = self::confirm_url( self::DO_DELETE, $ids );
		} else {
			Notice::set( 'info', Outbox_Actions::send_many( $ids, self::SEND_BUDGET ) );
		}
		wp_safe_redirect( $back );
		exit;
	}

	/**
	 * An action of a row, the single mail, a confirmation or the status line: capability, nonce, the action, then
	 * back with what was done.
	 */
	public static function action_admin_post() {
		if ( ! current_user_can( self::CAPABILITY ) ) {
			wp_die( esc_html__( 'You are not allowed to manage the Sitebeam outbox.', 'sitebeam' ), 403 );
		}
		check_admin_referer( self::ACTION );
		$verb = isset( $_REQUEST['do'] ) ? sanitize_key( wp_unslash( $_REQUEST['do'] ) ) : '';
		$ids  = self::requested_ids();
		$back = wp_get_referer() ? wp_get_referer() : self::url();
		switch ( $verb ) {
			case self::DO_SEND:
			case self::DO_SEND_AGAIN:
				$done = Outbox_Actions::send( $ids[0] ?? 0, self::DO_SEND_AGAIN === $verb );
				if ( 'needs_confirmation' === $done['outcome'] ) {
					$back = self::confirm_url( self::DO_SEND_AGAIN, array_slice( $ids, 0, 1 ) );
					break;
				}
				Notice::set( $done['type'], $done['message'] );
				if ( in_array( $done['outcome'], array( 'sent', 'gone' ), true ) || self::DO_SEND_AGAIN === $verb ) {
					$back = self::url();
				}
				break;
			case self::DO_DELETE:
				Notice::set( 'success', Outbox_Actions::delete( $ids ) );
				$back = self::url();
				break;
			case self::DO_DELETE_FAILED:
				Notice::set( 'success', Outbox_Actions::delete_all( Outbox::FAILED, null ) );
				$back = self::url();
				break;
			case self::DO_DELETE_CONTACT:
				Notice::set( 'success', Outbox_Actions::delete_all( null, Outbox::KIND_CONTACT ) );
				$back = self::url();
				break;
			case self::DO_TRY_NOW:
				Notice::set( 'info', Outbox_Actions::try_now( self::SEND_BUDGET ) );
				break;
		}
		wp_safe_redirect( $back );
		exit;
	}

	/**
	 * The screen: one mail, a confirmation, or the status line and the list.
	 */
	public static function render() {
		if ( ! current_user_can( self::CAPABILITY ) ) {
			return;
		}
		echo '<div class="wrap sitebeam-outbox">';
		// phpcs:disable WordPress.Security.NonceVerification.Recommended -- which page to show; nothing changes here.
		$confirm = isset( $_GET['confirm'] ) ? sanitize_key( wp_unslash( $_GET['confirm'] ) ) : '';
		$mail    = isset( $_GET['mail'] ) && ! isset( $_GET['confirm'] ) ? absint( $_GET['mail'] ) : 0;
		// phpcs:enable
		if ( '' !== $confirm ) {
			Outbox_Confirmation::render( $confirm, self::requested_ids() );
		} elseif ( $mail > 0 ) {
			Outbox_Mail_View::render( $mail );
		} else {
			self::render_list();
		}
		echo '</div>';
	}

	/**
	 * The status line, the introduction and the list.
	 */
	private static function render_list() {
		$table = null !== self::$table ? self::$table : new Outbox_List_Table();
		$table->prepare_items();
		echo '<h1 class="wp-heading-inline">' . esc_html__( 'Sitebeam outbox', 'sitebeam' ) . '</h1><hr class="wp-header-end">';
		Notice::show();
		self::render_status( $table->counts() );
		echo '<p class="sitebeam-outbox__intro">' . esc_html__( 'Mail the Sitebeam instance cannot take when it is written (it is unreachable, too slow, busy or failing) waits here and is sent as soon as the instance takes mail again. Mail the instance refuses for good, and mail still unsent when its lifetime ends, is marked Failed and stays here, with the reason, until you send it again or delete it.', 'sitebeam' ) . '</p>';
		$table->views();
		echo '<form method="get" class="sitebeam-outbox__form">';
		printf( '<input type="hidden" name="page" value="%s">', esc_attr( self::SLUG ) );
		if ( Outbox_Listing::VIEW_ALL !== Outbox_List_Table::current_view() ) {
			printf( '<input type="hidden" name="view" value="%s">', esc_attr( Outbox_List_Table::current_view() ) );
		}
		$table->search_box( __( 'Search mail', 'sitebeam' ), 'sitebeam-outbox' );
		$table->display();
		echo '</form>';
	}

	/**
	 * Whether mail is going through, how much waits or failed, and when it is tried next; with Try now and Test
	 * connection.
	 *
	 * @param array{all: int, waiting: int, failed: int, contact: int} $counts Mails per view.
	 */
	private static function render_status( array $counts ) {
		$state   = Delivery_State::get();
		$waiting = $counts[ Outbox_Listing::VIEW_WAITING ];
		$failed  = $counts[ Outbox_Listing::VIEW_FAILED ];
		$parts   = array();
		if ( null !== $state['failing_since'] ) {
			$type = 'error';
			/* translators: 1: a time, 2: the last error in words. */
			$parts[] = esc_html( sprintf( __( 'The instance has failed since %1$s (%2$s)', 'sitebeam' ), Outbox_Words::time( (int) $state['failing_since'] ), $state['last_error'] ) );
		} elseif ( $waiting + $failed > 0 ) {
			$type    = 'warning';
			$parts[] = esc_html( self::flowing( $state ) );
		} else {
			$type    = 'success';
			$parts[] = esc_html(
				null === $state['last_success']
					? __( 'All is well: nothing is waiting', 'sitebeam' )
					/* translators: %s: a time. */
					: sprintf( __( 'All is well: mail goes through (the last at %s) and nothing is waiting', 'sitebeam' ), Outbox_Words::time( (int) $state['last_success'] ) )
			);
		}
		if ( $waiting + $failed > 0 ) {
			/* translators: %s: number of mails. */
			$parts[] = sprintf( '<a href="%s">%s</a>', esc_url( self::url( array( 'view' => Outbox_Listing::VIEW_WAITING ) ) ), esc_html( sprintf( _n( '%s waiting', '%s waiting', $waiting, 'sitebeam' ), number_format_i18n( $waiting ) ) ) );
		}
		if ( $failed > 0 ) {
			/* translators: %s: number of mails. */
			$parts[] = sprintf( '<a href="%s">%s</a>', esc_url( self::url( array( 'view' => Outbox_Listing::VIEW_FAILED ) ) ), esc_html( sprintf( _n( '%s failed', '%s failed', $failed, 'sitebeam' ), number_format_i18n( $failed ) ) ) );
		}
		$next = Outbox_Listing::next_try();
		if ( null !== $next ) {
			$parts[] = esc_html(
				$next <= time() ? __( 'next try: overdue, at the next cron run', 'sitebeam' )
					/* translators: %s: a time span, e.g. "4 mins". */
					: sprintf( __( 'next try in %s', 'sitebeam' ), human_time_diff( time(), $next ) )
			);
		}
		if ( (int) $state['breaker_until'] > time() ) {
			/* translators: %s: a time. */
			$parts[] = esc_html( sprintf( __( 'new mail waits here until %s, not to hold pages while the instance fails', 'sitebeam' ), Outbox_Words::time( (int) $state['breaker_until'] ) ) );
		}
		printf( '<div class="notice notice-%s inline sitebeam-outbox__status"><p>%s</p>', esc_attr( $type ), implode( ' · ', $parts ) ); // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- each part escaped above.
		echo '<p class="sitebeam-outbox__status-actions">';
		if ( $waiting > 0 ) {
			self::post_button(
				admin_url( 'admin-post.php' ),
				array(
					'action' => self::ACTION,
					'do'     => self::DO_TRY_NOW,
				),
				self::ACTION,
				__( 'Try now', 'sitebeam' ),
				'button-primary'
			);
		}
		if ( current_user_can( Settings_Page::capability() ) ) {
			self::post_button( admin_url( 'admin-post.php' ), array( 'action' => Connection_Actions::TEST_CONNECTION ), Connection_Actions::TEST_CONNECTION, __( 'Test connection', 'sitebeam' ), '' );
		}
		echo '</p></div>';
	}

	/**
	 * The first part of the status line while the instance takes mail but some waits or failed.
	 *
	 * @param array<string, mixed> $state Delivery_State::get().
	 */
	private static function flowing( array $state ) {
		if ( null === $state['last_success'] ) {
			return __( 'No failure of the instance is known now', 'sitebeam' );
		}
		/* translators: %s: a time. */
		return sprintf( __( 'The instance takes mail again (the last at %s)', 'sitebeam' ), Outbox_Words::time( (int) $state['last_success'] ) );
	}

	/**
	 * A button in a form of its own that posts hidden fields with a nonce.
	 *
	 * @param string                $action The form's action URL.
	 * @param array<string, string> $fields Hidden fields.
	 * @param string                $nonce  The nonce's action.
	 * @param string                $label  The button's text.
	 * @param string                $style  A button class, or ''.
	 */
	public static function post_button( $action, array $fields, $nonce, $label, $style ) {
		printf( '<form method="post" action="%s" class="sitebeam-outbox__inline-form">', esc_url( $action ) );
		foreach ( $fields as $name => $value ) {
			printf( '<input type="hidden" name="%s" value="%s">', esc_attr( $name ), esc_attr( $value ) );
		}
		wp_nonce_field( $nonce );
		printf( '<button type="submit" class="button %s">%s</button></form>', esc_attr( $style ), esc_html( $label ) );
	}
}
