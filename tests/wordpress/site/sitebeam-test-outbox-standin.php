<?php
/**
 * Must-use plugin of the TEST site only. A STAND-IN, TO BE DELETED WHEN THE ENGINE BRANCH (wpout, issue #35) IS
 * MERGED: the outbox's screens (issue #36) are written against the outbox's interface (OUTBOX-INTERFACE.md), which
 * the engine branch implements; until it is merged, this gives the screens' tests the smallest version of what is
 * missing. Each part switches itself off where the plugin's own code already has it:
 *
 * - the table's columns kind, failure, last_try, history, attachment and visitor, added to the CREATE TABLE that
 *   Outbox::maybe_install() gives dbDelta;
 * - Outbox::KIND_SITE/KIND_CONTACT/FAILURE_REFUSED/FAILURE_EXPIRED, Outbox::delete_rows() and delete_all(),
 *   Outbox_Sender::send_one() and start_drain(): a copy of the plugin's class with these members appended is loaded
 *   in its place (only when the class lacks them);
 * - Delivery_State::get(): an option written after each request to the instance's /v1/email (only while the plugin
 *   has no src/Mail/Delivery_State.php).
 *
 * @package Sitebeam\Tests
 */

/** The class members each engine class lacks today, by class. */
const SITEBEAM_STANDIN_MEMBERS = array(
	'Sitebeam\\Mail\\Outbox'        => array(
		'const KIND_SITE'               => "\tconst KIND_SITE = 'site';\n",
		'const KIND_CONTACT'            => "\tconst KIND_CONTACT = 'contact';\n",
		'const FAILURE_REFUSED'         => "\tconst FAILURE_REFUSED = 'refused';\n",
		'const FAILURE_EXPIRED'         => "\tconst FAILURE_EXPIRED = 'expired';\n",
		'function delete_rows('         => '
	public static function delete_rows( array $ids ): int {
		global $wpdb;
		self::maybe_install();
		$table   = self::table();
		$deleted = 0;
		foreach ( array_unique( array_map( "intval", $ids ) ) as $id ) {
			$row = $wpdb->get_row( $wpdb->prepare( "SELECT recipient, subject FROM $table WHERE id = %d", $id ), ARRAY_A );
			if ( $row && $wpdb->delete( $table, array( "id" => $id ), array( "%d" ) ) ) {
				++$deleted;
				Send_Log::record( array( $row["recipient"] ), $row["subject"], Send_Log::DELETED );
			}
		}
		return $deleted;
	}
',
		'function delete_all('          => '
	public static function delete_all( ?string $state = null, ?string $kind = null ): int {
		global $wpdb;
		self::maybe_install();
		$table = self::table();
		$where = "1 = 1";
		if ( null !== $state ) {
			$where .= $wpdb->prepare( " AND state = %s", $state );
		}
		if ( null !== $kind ) {
			$where .= $wpdb->prepare( " AND kind = %s", $kind );
		}
		return self::delete_rows( $wpdb->get_col( "SELECT id FROM $table WHERE $where" ) );
	}
',
	),
	'Sitebeam\\Mail\\Outbox_Sender' => array(
		'function send_one('    => '
	public static function send_one( int $id, bool $again_after_refusal = false ): array {
		global $wpdb;
		Outbox::maybe_install();
		$table = Outbox::table();
		$row   = $wpdb->get_row( $wpdb->prepare( "SELECT * FROM $table WHERE id = %d", $id ), ARRAY_A );
		if ( ! $row ) {
			return array( "outcome" => "gone", "detail" => "That mail is no longer in the outbox." );
		}
		if ( Outbox::FAILED === $row["state"] && Outbox::FAILURE_REFUSED === $row["failure"] && ! $again_after_refusal ) {
			return array( "outcome" => "needs_confirmation", "detail" => $row["last_error"] );
		}
		if ( 1 !== $wpdb->query( $wpdb->prepare( "UPDATE $table SET state = %s, claimed_until = %d, tries = tries + 1 WHERE id = %d AND state <> %s", Outbox::SENDING, time() + self::CLAIM_SECONDS, $id, Outbox::SENDING ) ) ) {
			return array( "outcome" => "busy", "detail" => "Another process is sending it right now." );
		}
		$message = json_decode( (string) $row["message"], true );
		$result  = Api_Client::from_settings()->send_email( is_array( $message ) ? $message : array() );
		if ( ! is_wp_error( $result ) ) {
			Outbox::delete( $id );
			Send_Log::record( array( $row["recipient"] ), $row["subject"], Send_Log::SENT );
			return array( "outcome" => "sent", "detail" => "" );
		}
		$detail    = Api_Messages::describe( $result );
		$history   = json_decode( (string) $row["history"], true );
		$history   = is_array( $history ) ? $history : array();
		$history[] = array( "at" => time(), "status" => (int) ( ( (array) $result->get_error_data() )["status"] ?? 0 ), "error" => $detail );
		$history   = wp_json_encode( array_slice( $history, -20 ) );
		if ( Outbox::is_passing( $result ) ) {
			$wpdb->query( $wpdb->prepare( "UPDATE $table SET state = %s, next_try = %d, claimed_until = 0, last_error = %s, last_try = %d, history = %s WHERE id = %d", Outbox::WAITING, time() + Outbox::delay( (int) $row["tries"] + 1 ), $detail, time(), $history, $id ) );
			return array( "outcome" => "waiting", "detail" => $detail );
		}
		$wpdb->query( $wpdb->prepare( "UPDATE $table SET state = %s, failure = %s, claimed_until = 0, last_error = %s, last_try = %d, history = %s WHERE id = %d", Outbox::FAILED, Outbox::FAILURE_REFUSED, $detail, time(), $history, $id ) );
		Send_Log::record( array( $row["recipient"] ), $row["subject"], Send_Log::FAILED, $detail );
		return array( "outcome" => "failed", "detail" => $detail );
	}
',
		'function start_drain(' => '
	public static function start_drain() {
		self::schedule( time() );
		spawn_cron();
	}
',
	),
);

/** The columns the engine adds to the table (OUTBOX-INTERFACE.md). */
const SITEBEAM_STANDIN_COLUMNS = array(
	'kind'       => "kind varchar(10) NOT NULL DEFAULT 'site'",
	'failure'    => "failure varchar(10) NOT NULL DEFAULT ''",
	'last_try'   => 'last_try bigint(20) unsigned NOT NULL DEFAULT 0',
	'history'    => 'history text NOT NULL',
	'attachment' => "attachment varchar(255) NOT NULL DEFAULT ''",
	'visitor'    => "visitor varchar(320) NOT NULL DEFAULT ''",
);

add_filter(
	'dbdelta_create_queries',
	static function ( $queries ) {
		foreach ( $queries as $table => $query ) {
			if ( ! preg_match( '/sitebeam_outbox$/', (string) $table ) ) {
				continue;
			}
			foreach ( SITEBEAM_STANDIN_COLUMNS as $column => $definition ) {
				if ( ! preg_match( '/^\s*' . $column . '\s/m', $query ) ) {
					$query = (string) preg_replace( '/^(\s*PRIMARY KEY)/m', "  $definition,\n$1", $query, 1 );
				}
			}
			$queries[ $table ] = $query;
		}
		return $queries;
	}
);

/**
 * Loads a PHP source from a file of its own in the temp folder (written once per content).
 *
 * @param string $source PHP source.
 */
function sitebeam_standin_require( $source ) {
	$path = get_temp_dir() . 'sitebeam-standin-' . md5( $source ) . '.php';
	if ( ! is_file( $path ) ) {
		$partial = $path . '.' . getmypid();
		file_put_contents( $partial, $source ); // phpcs:ignore WordPress.WP.AlternativeFunctions -- a test-only copy.
		rename( $partial, $path ); // phpcs:ignore WordPress.WP.AlternativeFunctions -- atomic for the server's other workers.
	}
	require $path;
}

spl_autoload_register(
	static function ( $class_name ) {
		$file = WP_PLUGIN_DIR . '/sitebeam/src/' . str_replace( '\\', '/', substr( $class_name, strlen( 'Sitebeam\\' ) ) ) . '.php';
		if ( 'Sitebeam\\Mail\\Delivery_State' === $class_name && ! is_file( $file ) ) {
			sitebeam_standin_require( SITEBEAM_STANDIN_DELIVERY_STATE );
			return;
		}
		if ( ! isset( SITEBEAM_STANDIN_MEMBERS[ $class_name ] ) || ! is_readable( $file ) ) {
			return;
		}
		$source  = (string) file_get_contents( $file ); // phpcs:ignore WordPress.WP.AlternativeFunctions -- the plugin's own source.
		$missing = '';
		foreach ( SITEBEAM_STANDIN_MEMBERS[ $class_name ] as $needle => $member ) {
			if ( false === strpos( $source, $needle ) ) {
				$missing .= $member;
			}
		}
		if ( '' === $missing ) {
			return;
		}
		sitebeam_standin_require( substr( $source, 0, (int) strrpos( $source, '}' ) ) . $missing . "}\n" );
	},
	true,
	true
);

const SITEBEAM_STANDIN_STATE_OPTION = 'sitebeam_standin_delivery_state';

const SITEBEAM_STANDIN_DELIVERY_STATE = '<?php
namespace Sitebeam\\Mail;

final class Delivery_State {
	public static function get(): array {
		return array_merge(
			array( "failing_since" => null, "last_error" => "", "last_status" => 0, "last_success" => null, "breaker_until" => 0 ),
			(array) get_option( SITEBEAM_STANDIN_STATE_OPTION, array() )
		);
	}
}
';

// The delivery state the engine keeps, from what each request to /v1/email met: a passing failure (no answer, 408,
// 429, 5xx) starts or continues an outage, any answer of the instance ends it, a success is the last success.
add_action(
	'http_api_debug',
	static function ( $response, $context, $transport, $args, $url ) {
		if ( is_file( WP_PLUGIN_DIR . '/sitebeam/src/Mail/Delivery_State.php' ) || '/v1/email' !== (string) wp_parse_url( (string) $url, PHP_URL_PATH ) ) {
			return;
		}
		$state  = Sitebeam\Mail\Delivery_State::get();
		$status = is_wp_error( $response ) ? 0 : (int) wp_remote_retrieve_response_code( $response );
		if ( Sitebeam\Contract::is_passing_status( $status ) ) {
			$state['failing_since'] = $state['failing_since'] ?? time();
			$state['last_error']    = 0 === $status ? 'The instance cannot be reached.' : sprintf( 'The instance failed to answer (HTTP %d): try again in a moment.', $status );
		} else {
			$state['failing_since'] = null;
			$state['last_error']    = '';
		}
		if ( $status >= 200 && $status < 300 ) {
			$state['last_success'] = time();
		}
		$state['last_status'] = $status;
		update_option( SITEBEAM_STANDIN_STATE_OPTION, $state, false );
	},
	10,
	5
);
