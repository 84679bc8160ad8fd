<?php
/**
 * Must-use plugin of the TEST site only (never shipped): mail put straight into the outbox, hundreds at once, in any
 * state, for the tests of the outbox's screens (PHPUnit calls the function, Playwright the route).
 *
 * @package Sitebeam\Tests
 */

/**
 * Inserts `$count` rows made from one template; `{n}` in the recipient, the subject and the content becomes 1, 2, ….
 *
 * Template keys (all optional): recipient, subject, content, state (waiting|sending|failed), failure, kind, tries,
 * last_error, age (seconds since it was queued), next_in (seconds to its next try, negative: overdue; for a failed row,
 * when it was given up, by default at its last try), last_try_ago
 * (seconds; 0: never tried), history (list of {at, status, error}), attachment (a file name: the message then
 * carries a small text file of that name), visitor (a contact message's sender), message (extra API message fields).
 *
 * @param array<string, mixed> $template The rows' values.
 * @param int                  $count    How many.
 * @return int[] The new rows' ids.
 */
function sitebeam_test_outbox_insert( array $template, $count = 1 ) {
	global $wpdb;
	Sitebeam\Mail\Outbox::maybe_install();
	$table  = Sitebeam\Mail\Outbox::table();
	$now    = time();
	$values = array();
	for ( $n = 1; $n <= $count; $n++ ) {
		$fill    = static function ( $text ) use ( $n ) {
			return str_replace( '{n}', (string) $n, (string) $text );
		};
		$message = array(
			'to'      => $fill( $template['recipient'] ?? 'reader{n}@example.com' ),
			'subject' => $fill( $template['subject'] ?? 'Mail {n}' ),
			'content' => $fill( $template['content'] ?? 'Body of mail {n}' ),
		) + (array) ( $template['message'] ?? array() );
		if ( ! empty( $template['attachment'] ) ) {
			$message['attachment'] = array(
				'mime_type' => 'text/plain',
				'file_name' => (string) $template['attachment'],
				'b64'       => base64_encode( 'attached text' ), // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions -- the API's encoding.
			);
		}
		$json     = (string) wp_json_encode( $message );
		$last_try = (int) ( $template['last_try_ago'] ?? 0 );
		$values[] = $wpdb->prepare(
			"(%d, %d, %d, %s, %s, %s, %s, %d, %s, %s, %s, %d, %s, %s, %s, '')",
			$now - (int) ( $template['age'] ?? 0 ) - $count + $n, // the later rows queued later, a second apart
			$now + (int) ( $template['next_in'] ?? ( 'failed' === ( $template['state'] ?? '' ) ? -$last_try : 60 ) ), // a failed row's: when it was given up
			(int) ( $template['tries'] ?? 0 ),
			(string) ( $template['state'] ?? 'waiting' ),
			$message['to'],
			$message['subject'],
			$json,
			strlen( $json ),
			(string) ( $template['last_error'] ?? '' ),
			(string) ( $template['kind'] ?? 'site' ),
			(string) ( $template['failure'] ?? '' ),
			$last_try > 0 ? $now - $last_try : 0,
			(string) wp_json_encode( $template['history'] ?? array() ),
			(string) ( $template['attachment'] ?? '' ),
			strtolower( (string) ( $template['visitor'] ?? '' ) )
		);
	}
	$ids = array();
	foreach ( array_chunk( $values, 200 ) as $chunk ) {
		$wpdb->query( "INSERT INTO $table (created_at, next_try, tries, state, recipient, subject, message, bytes, last_error, kind, failure, last_try, history, attachment, visitor, wp_mail) VALUES " . implode( ', ', $chunk ) ); // phpcs:ignore WordPress.DB -- test fixture; each row prepared above.
		$first = (int) $wpdb->insert_id;
		$ids   = array_merge( $ids, range( $first, $first + count( $chunk ) - 1 ) );
	}
	return $ids;
}

add_action(
	'rest_api_init',
	static function () {
		// The test site listens on 127.0.0.1 only; this route exists nowhere else.
		register_rest_route(
			'sitebeam-test/v1',
			'/outbox/rows',
			array(
				'methods'             => 'POST',
				'permission_callback' => '__return_true',
				'callback'            => static function ( WP_REST_Request $request ) {
					return array( 'ids' => sitebeam_test_outbox_insert( (array) $request['template'], max( 1, (int) $request['count'] ) ) );
				},
			)
		);
	}
);
