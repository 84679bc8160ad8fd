<?php
/**
 * Benchmark of the outbox on the real WordPress and stub of tests/wordpress/bench.sh (run with PHP's CLI, WordPress
 * loaded). bench.sh runs it against this branch's plugin and, beside it on a second site, the plugin before issue #35
 * (the baseline), with SITEBEAM_BENCH_PART naming what to measure and SITEBEAM_BENCH_LABEL the code:
 *
 * - `mail`: what wp_mail() costs with the instance up, through the plugin (its outbox included) against a direct send
 *   (the same mapping, API call and log line without the outbox), interleaved;
 * - `drain`: the drain rate of an outbox of due mails (SITEBEAM_BENCH_OUTBOX_MAILS, 1,000 by default; bench.sh
 *   runs rounds of 500), sent by one run;
 * - `recovery`: seconds from the instance's recovery to an empty outbox, for 200 mails kept during an outage whose
 *   backoff had grown to its hour, on a site whose system cron runs wp-cron.php every minute. The minute is a scaled
 *   clock: each tick moves every stored time of the outbox (rows, lock, delivery state, WP-Cron's events and lock)
 *   60 s back (tests/wordpress/phpunit/support/Clock.php), then runs wp-cron.php in a process of its own, as the
 *   system cron would; a minute so costs only the wall time of its run. The instance comes back just after a tick
 *   (the worst case): the outbox is empty 60 × (ticks) s later, plus the wall time of the last run.
 *
 * Prints numbers; exits 1 only when a mail did not arrive.
 *
 * @package Sitebeam\Tests
 */

use Sitebeam\Api_Client;
use Sitebeam\Mail\Message_Mapper;
use Sitebeam\Mail\Outbox;
use Sitebeam\Mail\Outbox_Sender;
use Sitebeam\Mail\Send_Log;
use Sitebeam\Tests\Clock;

$_SERVER['HTTP_HOST']   = (string) parse_url( getenv( 'SITEBEAM_WP_URL' ), PHP_URL_HOST ); // phpcs:ignore Generic.PHP.ForbiddenFunctions -- WordPress is not loaded yet.
$_SERVER['REQUEST_URI'] = '/';
$_SERVER['SERVER_NAME'] = $_SERVER['HTTP_HOST'];
require getenv( 'SITEBEAM_WP_ROOT' ) . '/wp-load.php';
require dirname( __DIR__ ) . '/phpunit/support/Clock.php';

$sitebeam_label = getenv( 'SITEBEAM_BENCH_LABEL' ) ? getenv( 'SITEBEAM_BENCH_LABEL' ) : 'this branch';
$sitebeam_part  = getenv( 'SITEBEAM_BENCH_PART' ) ? getenv( 'SITEBEAM_BENCH_PART' ) : 'mail';

/**
 * The stub's captured mail whose subject holds $marker.
 *
 * @param string $marker Text in the subjects counted.
 */
function sitebeam_bench_stub_count( $marker ) {
	$answer = wp_remote_get( getenv( 'SITEBEAM_STUB_URL' ) . '/__stub/emails', array( 'timeout' => 30 ) );
	$found  = 0;
	foreach ( (array) ( json_decode( (string) wp_remote_retrieve_body( $answer ), true )['emails'] ?? array() ) as $email ) {
		$found += (int) ( false !== strpos( (string) ( $email['message']['subject'] ?? '' ), $marker ) );
	}
	return $found;
}

/**
 * Sets the stub's faults (an empty list clears them).
 *
 * @param array<int, array<string, mixed>> $faults Rules.
 */
function sitebeam_bench_faults( array $faults ) {
	$args   = $faults ? array(
		'method'  => 'PUT',
		'headers' => array( 'Content-Type' => 'application/json' ),
		'body'    => wp_json_encode( array( 'faults' => $faults ) ),
	) : array( 'method' => 'DELETE' );
	$answer = wp_remote_request( getenv( 'SITEBEAM_STUB_URL' ) . '/__stub/faults', $args );
	if ( 300 <= (int) wp_remote_retrieve_response_code( $answer ) || is_wp_error( $answer ) ) {
		fwrite( STDERR, "bench: the stub's faults could not be set\n" );
		exit( 1 );
	}
}

/**
 * The p-th percentile of samples, in ms.
 *
 * @param float[] $samples Nanosecond samples.
 * @param float   $p       0..1.
 */
function sitebeam_bench_percentile( array $samples, $p ) {
	sort( $samples );
	return $samples[ (int) min( count( $samples ) - 1, floor( $p * count( $samples ) ) ) ] / 1e6;
}

/**
 * A direct send: map, one API call per recipient, one log line; no outbox.
 *
 * @param array<string, mixed> $atts wp_mail's arguments.
 */
function sitebeam_bench_direct( array $atts ) {
	$client = Api_Client::from_settings();
	$mail   = Message_Mapper::map( $atts );
	foreach ( $mail->recipients as $recipient ) {
		$client->send_email( $mail->message_for( $recipient ) );
	}
	Send_Log::record( $mail->recipients, $atts['subject'], Send_Log::SENT );
}

/**
 * Empties the outbox, its lock, cron events and delivery state.
 */
function sitebeam_bench_empty_outbox() {
	global $wpdb;
	Outbox::maybe_install();
	$wpdb->query( 'DELETE FROM ' . Outbox::table() ); // phpcs:ignore WordPress.DB
	$wpdb->query( "DELETE FROM {$wpdb->options} WHERE option_name IN ('sitebeam_outbox_lock', 'sitebeam_delivery_state', 'sitebeam_outbox_drained')" ); // phpcs:ignore WordPress.DB
	foreach ( array( 'sitebeam_outbox_run', 'sitebeam_outbox_watch', 'sitebeam_outbox_purge' ) as $hook ) {
		wp_clear_scheduled_hook( $hook );
	}
	delete_transient( 'doing_cron' );
	wp_cache_flush();
}

/**
 * Runs the site's wp-cron.php in a process of its own, as a system cron does; its wall time in seconds.
 */
function sitebeam_bench_system_cron() {
	$start   = hrtime( true );
	$process = proc_open( array( PHP_BINARY, dirname( __DIR__ ) . '/phpunit/support/wp-cron.php' ), array( 1 => array( 'file', '/dev/null', 'w' ), 2 => array( 'file', '/dev/null', 'w' ) ), $pipes ); // phpcs:ignore Generic.PHP.ForbiddenFunctions -- the system cron's process.
	proc_close( $process );
	wp_cache_flush();
	return ( hrtime( true ) - $start ) / 1e9;
}

/**
 * Waiting (unsent) rows.
 */
function sitebeam_bench_waiting() {
	global $wpdb;
	return (int) $wpdb->get_var( $wpdb->prepare( 'SELECT COUNT(*) FROM ' . Outbox::table() . ' WHERE state <> %s', 'failed' ) ); // phpcs:ignore WordPress.DB
}

sitebeam_bench_empty_outbox();
update_option( 'sitebeam_settings', array_merge( (array) get_option( 'sitebeam_settings' ), array( 'outbox_max_mails' => 5000 ) ) );

if ( 'mail' === $sitebeam_part ) {
	$rounds  = (int) ( getenv( 'SITEBEAM_BENCH_MAIL_ROUNDS' ) ? getenv( 'SITEBEAM_BENCH_MAIL_ROUNDS' ) : 300 );
	$samples = array(
		'outbox' => array(),
		'direct' => array(),
	);
	for ( $i = 0; $i < 20 + $rounds; $i++ ) {
		$atts  = array(
			'to'          => 'bench@example.com',
			'subject'     => "Order $i",
			'message'     => "Thank you for your order $i.",
			'headers'     => array(),
			'attachments' => array(),
		);
		$order = 0 === $i % 2 ? array( 'outbox', 'direct' ) : array( 'direct', 'outbox' );
		foreach ( $order as $way ) {
			$start = hrtime( true );
			if ( 'outbox' === $way ) {
				wp_mail( $atts['to'], $atts['subject'], $atts['message'] );
			} else {
				sitebeam_bench_direct( $atts );
			}
			if ( $i >= 20 ) {
				$samples[ $way ][] = hrtime( true ) - $start;
			}
		}
	}
	printf(
		"wp_mail(), instance up, %d each, interleaved (%s): through the plugin with its outbox median %.2f ms, p99 %.2f ms; a direct send median %.2f ms, p99 %.2f ms (outbox: %+.2f ms median)\n",
		$rounds,
		$sitebeam_label,
		sitebeam_bench_percentile( $samples['outbox'], 0.5 ),
		sitebeam_bench_percentile( $samples['outbox'], 0.99 ),
		sitebeam_bench_percentile( $samples['direct'], 0.5 ),
		sitebeam_bench_percentile( $samples['direct'], 0.99 ),
		sitebeam_bench_percentile( $samples['outbox'], 0.5 ) - sitebeam_bench_percentile( $samples['direct'], 0.5 )
	);
	exit( 0 );
}

if ( 'drain' === $sitebeam_part ) {
	$count  = (int) ( getenv( 'SITEBEAM_BENCH_OUTBOX_MAILS' ) ? getenv( 'SITEBEAM_BENCH_OUTBOX_MAILS' ) : 1000 );
	$marker = 'drain-' . wp_generate_password( 8, false );
	for ( $i = 0; $i < $count; $i++ ) {
		$mail = Message_Mapper::map(
			array(
				'to'          => "customer$i@example.com",
				'subject'     => "Drain $i $marker",
				'message'     => str_repeat( "Line of an order notification $i.\n", 20 ),
				'headers'     => array(),
				'attachments' => array(),
			)
		);
		Outbox::add( $mail->message_for( $mail->recipients[0] ), 1, time(), 'HTTP 503' );
	}
	$start   = hrtime( true );
	$done    = Outbox_Sender::run( null );
	$seconds = ( hrtime( true ) - $start ) / 1e9;
	$arrived = sitebeam_bench_stub_count( $marker );
	printf( "outbox drain (%s): %d due mails to the stub in %.2f s, %.1f mails/s (one run; %d arrived, %d left)\n", $sitebeam_label, $done['sent'], $seconds, $done['sent'] / $seconds, $arrived, sitebeam_bench_waiting() );
	exit( $arrived === $count ? 0 : 1 );
}

// Recovery: 200 mails kept during an outage, their backoff grown to an hour, then the instance comes back.
$count  = (int) ( getenv( 'SITEBEAM_BENCH_RECOVERY_MAILS' ) ? getenv( 'SITEBEAM_BENCH_RECOVERY_MAILS' ) : 200 );
$ticks  = (int) ( getenv( 'SITEBEAM_BENCH_RECOVERY_TICKS' ) ? getenv( 'SITEBEAM_BENCH_RECOVERY_TICKS' ) : 75 );
$marker = 'recovery-' . wp_generate_password( 8, false );
sitebeam_bench_faults(
	array(
		array(
			'method'        => 'POST',
			'path_prefix'   => '/v1/email',
			'status'        => 503,
			'body_contains' => $marker,
		),
	)
);
for ( $i = 0; $i < $count; $i++ ) {
	wp_mail( "waiting$i@example.com", "Waiting $i $marker", "Your order $i." );
}
global $wpdb;
$wpdb->query( $wpdb->prepare( 'UPDATE ' . Outbox::table() . ' SET tries = 8, next_try = %d', time() + HOUR_IN_SECONDS ) ); // phpcs:ignore WordPress.DB -- the backoff grown to its hour.
// One minute still down: each code's cron does what it does during an outage, and schedules what it schedules.
Clock::advance( MINUTE_IN_SECONDS );
sitebeam_bench_system_cron();
sitebeam_bench_faults( array() );
$kept = sitebeam_bench_waiting();
for ( $tick = 1; $tick <= $ticks; $tick++ ) {
	Clock::advance( MINUTE_IN_SECONDS );
	$last = sitebeam_bench_system_cron();
	if ( 0 === sitebeam_bench_waiting() ) {
		break;
	}
}
$arrived = sitebeam_bench_stub_count( $marker );
if ( $tick > $ticks ) {
	printf( "outbox recovery (%s): %d kept mails, %d delivered, %d still waiting %d s after recovery (one-minute cron, scaled clock)\n", $sitebeam_label, $kept, $arrived, sitebeam_bench_waiting(), 60 * $ticks );
	exit( 0 );
}
printf(
	"outbox recovery (%s): %d kept mails (backoff 1 h) all delivered %.1f s after the instance came back (one-minute cron, scaled clock; worst case, back just after a tick: cron tick %d emptied it, its wp-cron.php process taking %.1f s)\n",
	$sitebeam_label,
	$kept,
	60 * $tick + $last,
	$tick,
	$last
);
exit( $arrived >= $kept ? 0 : 1 );
