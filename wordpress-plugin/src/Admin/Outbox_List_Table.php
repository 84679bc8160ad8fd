<?php
/**
 * The outbox's list, on WordPress's own list table: views with counts, search, sortable Queued and Next try, a pager,
 * bulk Send now and Delete, rows that collapse on a phone.
 *
 * @package Sitebeam
 */

namespace Sitebeam\Admin;

use Sitebeam\Mail\Outbox;

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

if ( ! class_exists( 'WP_List_Table' ) ) {
	require_once ABSPATH . 'wp-admin/includes/class-wp-list-table.php';
}

/**
 * The outbox's list, on WordPress's own list table.
 */
final class Outbox_List_Table extends \WP_List_Table {

	/** The user option Screen Options saves the page size in. */
	const PER_PAGE_OPTION = 'sitebeam_outbox_per_page';
	const PER_PAGE        = 20;

	/** The checkbox's name: the ids of the mails a bulk action is for. */
	const IDS = 'mail';

	/**
	 * Mails per view.
	 *
	 * @var array{all: int, waiting: int, failed: int, contact: int}
	 */
	private $counts;

	/**
	 * The list.
	 *
	 * @param array<string, mixed> $args WP_List_Table's arguments (the screen, in tests).
	 */
	public function __construct( $args = array() ) {
		parent::__construct(
			$args + array(
				'singular' => 'sitebeam-mail',
				'plural'   => 'sitebeam-mails',
				'ajax'     => false,
			)
		);
	}

	/**
	 * The view asked for: all, waiting or failed.
	 */
	public static function current_view() {
		$view = isset( $_REQUEST['view'] ) ? sanitize_key( wp_unslash( $_REQUEST['view'] ) ) : ''; // phpcs:ignore WordPress.Security.NonceVerification.Recommended -- which rows to show; nothing changes.
		return in_array( $view, array( Outbox_Listing::VIEW_WAITING, Outbox_Listing::VIEW_FAILED ), true ) ? $view : Outbox_Listing::VIEW_ALL;
	}

	/**
	 * The searched text.
	 */
	public static function current_search() {
		return isset( $_REQUEST['s'] ) ? trim( sanitize_text_field( wp_unslash( $_REQUEST['s'] ) ) ) : ''; // phpcs:ignore WordPress.Security.NonceVerification.Recommended -- which rows to show; nothing changes.
	}

	/**
	 * Mails per view, as prepare_items() counted them.
	 *
	 * @return array{all: int, waiting: int, failed: int, contact: int}
	 */
	public function counts() {
		return $this->counts;
	}

	/**
	 * Reads the page of rows the request asks for.
	 */
	public function prepare_items() {
		// phpcs:disable WordPress.Security.NonceVerification.Recommended -- sorting and paging; nothing changes.
		$orderby = isset( $_REQUEST['orderby'] ) ? sanitize_key( wp_unslash( $_REQUEST['orderby'] ) ) : 'queued';
		$order   = isset( $_REQUEST['order'] ) ? sanitize_key( wp_unslash( $_REQUEST['order'] ) ) : ( 'next_try' === $orderby ? 'asc' : 'desc' );
		// phpcs:enable
		$this->counts = Outbox_Listing::counts();
		$per_page     = $this->get_items_per_page( self::PER_PAGE_OPTION, self::PER_PAGE );
		$page         = Outbox_Listing::page(
			array(
				'view'     => self::current_view(),
				'search'   => self::current_search(),
				'orderby'  => $orderby,
				'order'    => $order,
				'page'     => $this->get_pagenum(),
				'per_page' => $per_page,
			)
		);
		$this->items  = $page['rows'];
		$this->set_pagination_args(
			array(
				'total_items' => $page['total'],
				'total_pages' => (int) ceil( $page['total'] / $per_page ),
				'per_page'    => $per_page,
			)
		);
	}

	/**
	 * The columns.
	 *
	 * @return array<string, string>
	 */
	public function get_columns() {
		return array(
			'cb'        => '<input type="checkbox" />',
			'recipient' => __( 'Recipient', 'sitebeam' ),
			'subject'   => __( 'Subject', 'sitebeam' ),
			'state'     => __( 'State', 'sitebeam' ),
			'tries'     => __( 'Tries', 'sitebeam' ),
			'queued'    => __( 'Queued', 'sitebeam' ),
			'next_try'  => __( 'Next try', 'sitebeam' ),
		);
	}

	/**
	 * Queued sorts newest first on its first click, Next try soonest first.
	 *
	 * @return array<string, array{0: string, 1: bool}>
	 */
	protected function get_sortable_columns() {
		return array(
			'queued'   => array( 'queued', true ),
			'next_try' => array( 'next_try', false ),
		);
	}

	/**
	 * The recipient names the row, as a title does in WordPress's own lists; on a phone the others fold under it.
	 */
	protected function get_default_primary_column_name() {
		return 'recipient';
	}

	/**
	 * All (n) | Waiting (n) | Failed (n).
	 *
	 * @return array<string, string>
	 */
	protected function get_views() {
		$labels  = array(
			/* translators: %s: number of mails. */
			Outbox_Listing::VIEW_ALL     => _nx_noop( 'All <span class="count">(%s)</span>', 'All <span class="count">(%s)</span>', 'outbox view', 'sitebeam' ),
			/* translators: %s: number of mails. */
			Outbox_Listing::VIEW_WAITING => _nx_noop( 'Waiting <span class="count">(%s)</span>', 'Waiting <span class="count">(%s)</span>', 'outbox view', 'sitebeam' ),
			/* translators: %s: number of mails. */
			Outbox_Listing::VIEW_FAILED  => _nx_noop( 'Failed <span class="count">(%s)</span>', 'Failed <span class="count">(%s)</span>', 'outbox view', 'sitebeam' ),
		);
		$current = self::current_view();
		$views   = array();
		foreach ( $labels as $view => $label ) {
			$count          = (int) $this->counts[ $view ];
			$views[ $view ] = sprintf(
				'<a href="%s"%s>%s</a>',
				esc_url( Outbox_Page::url( Outbox_Listing::VIEW_ALL === $view ? array() : array( 'view' => $view ) ) ),
				$current === $view ? ' class="current" aria-current="page"' : '',
				sprintf( translate_nooped_plural( $label, $count, 'sitebeam' ), esc_html( number_format_i18n( $count ) ) )
			);
		}
		return $views;
	}

	/**
	 * Send now and Delete, for the ticked rows.
	 *
	 * @return array<string, string>
	 */
	protected function get_bulk_actions() {
		return array(
			Outbox_Page::DO_SEND   => __( 'Send now', 'sitebeam' ),
			Outbox_Page::DO_DELETE => __( 'Delete', 'sitebeam' ),
		);
	}

	/**
	 * "1–20 of 508" where WordPress says "508 items".
	 *
	 * @param string $which top|bottom.
	 */
	protected function pagination( $which ) {
		ob_start();
		parent::pagination( $which );
		$html  = (string) ob_get_clean();
		$total = (int) $this->get_pagination_arg( 'total_items' );
		$first = $total > 0 ? ( $this->get_pagenum() - 1 ) * (int) $this->get_pagination_arg( 'per_page' ) + 1 : 0;
		$last  = $total > 0 ? $first + count( $this->items ) - 1 : 0;
		/* translators: 1: the first mail shown, 2: the last mail shown, 3: how many mails there are. */
		$range = sprintf( __( '%1$s–%2$s of %3$s', 'sitebeam' ), number_format_i18n( $first ), number_format_i18n( $last ), number_format_i18n( $total ) );
		echo preg_replace( '#<span class="displaying-num">[^<]*</span>#', '<span class="displaying-num">' . esc_html( $range ) . '</span>', $html, 1 ); // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- WordPress's own pagination markup, and the range escaped.
	}

	/**
	 * The buttons for a whole view: delete every failed mail, every contact message. Each asks first.
	 *
	 * @param string $which top|bottom.
	 */
	protected function extra_tablenav( $which ) {
		if ( 'top' !== $which ) {
			return;
		}
		$buttons = array();
		if ( $this->counts[ Outbox_Listing::VIEW_FAILED ] > 0 ) {
			$buttons[] = array( Outbox_Page::DO_DELETE_FAILED, __( 'Delete all failed…', 'sitebeam' ) );
		}
		if ( $this->counts['contact'] > 0 ) {
			$buttons[] = array( Outbox_Page::DO_DELETE_CONTACT, __( 'Delete all contact messages…', 'sitebeam' ) );
		}
		if ( array() === $buttons ) {
			return;
		}
		echo '<div class="alignleft actions">';
		foreach ( $buttons as list( $verb, $label ) ) {
			printf( '<a class="button" href="%s">%s</a> ', esc_url( Outbox_Page::confirm_url( $verb ) ), esc_html( $label ) );
		}
		echo '</div>';
	}

	/**
	 * What an empty list says: what is true of the view, never more.
	 */
	public function no_items() {
		if ( '' !== self::current_search() ) {
			/* translators: %s: the searched text. */
			printf( esc_html__( 'No mail in this view matches “%s”.', 'sitebeam' ), esc_html( self::current_search() ) );
			return;
		}
		$words = array(
			Outbox_Listing::VIEW_ALL     => __( 'The outbox is empty: no mail is waiting and none has failed.', 'sitebeam' ),
			Outbox_Listing::VIEW_WAITING => __( 'No mail is waiting.', 'sitebeam' ),
			Outbox_Listing::VIEW_FAILED  => __( 'No failed mail.', 'sitebeam' ),
		);
		echo esc_html( $words[ self::current_view() ] );
	}

	/**
	 * The row's checkbox.
	 *
	 * @param array<string, string> $item An outbox row.
	 */
	protected function column_cb( $item ) {
		return sprintf(
			'<label class="screen-reader-text" for="sitebeam-mail-%1$d">%2$s</label><input type="checkbox" id="sitebeam-mail-%1$d" name="%3$s[]" value="%1$d" />',
			(int) $item['id'],
			/* translators: 1: recipient, 2: subject. */
			esc_html( sprintf( __( 'Select the mail to %1$s: %2$s', 'sitebeam' ), $item['recipient'], $item['subject'] ) ),
			esc_attr( self::IDS )
		);
	}

	/**
	 * The recipient, linking to the mail.
	 *
	 * @param array<string, string> $item An outbox row.
	 */
	protected function column_recipient( $item ) {
		return sprintf( '<strong><a class="row-title" href="%s">%s</a></strong>', esc_url( Outbox_Page::url( array( 'mail' => (int) $item['id'] ) ) ), esc_html( $item['recipient'] ) );
	}

	/**
	 * The subject, what kind of mail it is, and a mark when it has an attachment.
	 *
	 * @param array<string, string> $item An outbox row.
	 */
	protected function column_subject( $item ) {
		$html = esc_html( $item['subject'] );
		if ( '' !== (string) ( $item['attachment'] ?? '' ) ) {
			$html .= sprintf(
				' <span class="sitebeam-outbox__attachment" title="%1$s"><span class="dashicons dashicons-paperclip" aria-hidden="true"></span><span class="screen-reader-text">%1$s</span></span>',
				/* translators: %s: a file name. */
				esc_attr( sprintf( __( 'Attachment: %s', 'sitebeam' ), $item['attachment'] ) )
			);
		}
		if ( Outbox::KIND_CONTACT === ( $item['kind'] ?? '' ) ) {
			$html .= '<br><span class="sitebeam-outbox__kind">' . esc_html__( 'Contact form message', 'sitebeam' ) . '</span>';
		}
		return $html;
	}

	/**
	 * The state, and what the last try met.
	 *
	 * @param array<string, string> $item An outbox row.
	 */
	protected function column_state( $item ) {
		$error = Outbox_Words::last_error( $item );
		return sprintf(
			'<span class="sitebeam-outbox__state sitebeam-outbox__state--%s">%s</span>%s',
			esc_attr( $item['state'] ),
			esc_html( Outbox_Words::state( $item ) ),
			'' === $error ? '' : '<br><span class="sitebeam-outbox__error">' . esc_html( $error ) . '</span>'
		);
	}

	/**
	 * Tries made.
	 *
	 * @param array<string, string> $item An outbox row.
	 */
	protected function column_tries( $item ) {
		return esc_html( number_format_i18n( (int) $item['tries'] ) );
	}

	/**
	 * How long ago the mail was queued.
	 *
	 * @param array<string, string> $item An outbox row.
	 */
	protected function column_queued( $item ) {
		return Outbox_Words::time_element( (int) $item['created_at'], Outbox_Words::ago( (int) $item['created_at'] ) );
	}

	/**
	 * When the mail is tried next.
	 *
	 * @param array<string, string> $item An outbox row.
	 */
	protected function column_next_try( $item ) {
		return esc_html( Outbox_Words::next_try( $item ) );
	}

	/**
	 * View, Send now (Send again… for a mail refused for good: it asks first) and Delete… (it asks first).
	 *
	 * @param array<string, string> $item        An outbox row.
	 * @param string                $column_name The column.
	 * @param string                $primary     The primary column.
	 */
	protected function handle_row_actions( $item, $column_name, $primary ) {
		if ( $column_name !== $primary ) {
			return '';
		}
		$id      = (int) $item['id'];
		$actions = array(
			'view' => sprintf( '<a href="%s">%s</a>', esc_url( Outbox_Page::url( array( 'mail' => $id ) ) ), esc_html__( 'View', 'sitebeam' ) ),
		);
		if ( Outbox_Words::is_refused( $item ) ) {
			$actions['send'] = sprintf( '<a href="%s">%s</a>', esc_url( Outbox_Page::confirm_url( Outbox_Page::DO_SEND_AGAIN, array( $id ) ) ), esc_html__( 'Send again…', 'sitebeam' ) );
		} elseif ( Outbox::SENDING !== $item['state'] ) {
			$actions['send'] = sprintf( '<a href="%s">%s</a>', esc_url( Outbox_Page::action_url( Outbox_Page::DO_SEND, array( 'mail' => $id ) ) ), esc_html__( 'Send now', 'sitebeam' ) );
		}
		$actions['delete'] = sprintf( '<a class="submitdelete" href="%s">%s</a>', esc_url( Outbox_Page::confirm_url( Outbox_Page::DO_DELETE, array( $id ) ) ), esc_html__( 'Delete…', 'sitebeam' ) );
		return $this->row_actions( $actions );
	}
}
