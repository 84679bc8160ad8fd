<?php
/**
 * Benchmark of the outbox on the real WordPress and stub of tests/wordpress/bench.sh (run with PHP's CLI, WordPress
 * loaded): the drain rate of an outbox of 1,000 mails to the stub, and what wp_mail() costs with the instance up
 * through the plugin (outbox check included) against today's direct send (the same mapping, API call and log line
 * without the outbox), interleaved in one run. Prints numbers; asserts only that every mail arrived.
 *
 * @package Sitebeam\Tests
 */

use Sitebeam\Api_Client;
use Sitebeam\Mail\Message_Mapper;
use Sitebeam\Mail\Outbox;
use Sitebeam\Mail\Outbox_Sender;
use Sitebeam\Mail\Send_Log;

$_SERVER['HTTP_HOST']   = (string) parse_url( getenv( 'SITEBEAM_WP_URL' ), PHP_URL_HOST ); // phpcs:ignore Generic.PHP.ForbiddenFunctions -- WordPress is not loaded yet.
$_SERVER['REQUEST_URI'] = '/';
$_SERVER['SERVER_NAME'] = $_SERVER['HTTP_HOST'];
require getenv( 'SITEBEAM_WP_ROOT' ) . '/wp-load.php';

$sitebeam_rounds = (int) ( getenv( 'SITEBEAM_BENCH_MAIL_ROUNDS' ) ? getenv( 'SITEBEAM_BENCH_MAIL_ROUNDS' ) : 300 );
$sitebeam_drain  = (int) ( getenv( 'SITEBEAM_BENCH_OUTBOX_MAILS' ) ? getenv( 'SITEBEAM_BENCH_OUTBOX_MAILS' ) : 1000 );

/**
 * The stub's captured mail count.
 */
function sitebeam_bench_stub_count() {
	$answer = wp_remote_get( getenv( 'SITEBEAM_STUB_URL' ) . '/__stub/emails', array( 'timeout' => 30 ) );
	return count( (array) ( json_decode( (string) wp_remote_retrieve_body( $answer ), true )['emails'] ?? array() ) );
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
 * Today's direct send: map, one API call per recipient, one log line; no outbox.
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

global $wpdb;
$wpdb->query( 'DELETE FROM ' . Outbox::table() ); // phpcs:ignore WordPress.DB

// wp_mail() with the instance up: through the plugin (outbox check) and direct, interleaved.
$sitebeam_samples = array(
	'outbox' => array(),
	'direct' => array(),
);
for ( $i = 0; $i < 20 + $sitebeam_rounds; $i++ ) {
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
			$sitebeam_samples[ $way ][] = hrtime( true ) - $start;
		}
	}
}
printf(
	"wp_mail(), instance up, %d each, interleaved: through the plugin with its outbox median %.2f ms, p99 %.2f ms; today's direct send median %.2f ms, p99 %.2f ms (outbox check: %+.2f ms median)\n",
	$sitebeam_rounds,
	sitebeam_bench_percentile( $sitebeam_samples['outbox'], 0.5 ),
	sitebeam_bench_percentile( $sitebeam_samples['outbox'], 0.99 ),
	sitebeam_bench_percentile( $sitebeam_samples['direct'], 0.5 ),
	sitebeam_bench_percentile( $sitebeam_samples['direct'], 0.99 ),
	sitebeam_bench_percentile( $sitebeam_samples['outbox'], 0.5 ) - sitebeam_bench_percentile( $sitebeam_samples['direct'], 0.5 )
);

// Drain: an outbox of N mails (as wp_mail keeps them: one mapped message each), due now, sent by one cron run.
update_option( 'sitebeam_settings', array_merge( (array) get_option( 'sitebeam_settings' ), array( 'outbox_max_mails' => max( 1000, $sitebeam_drain ) ) ) );
for ( $i = 0; $i < $sitebeam_drain; $i++ ) {
	$mail = Message_Mapper::map(
		array(
			'to'          => "customer$i@example.com",
			'subject'     => "Drain $i",
			'message'     => str_repeat( "Line of an order notification $i.\n", 20 ),
			'headers'     => array(),
			'attachments' => array(),
		)
	);
	Outbox::add( $mail->message_for( $mail->recipients[0] ), 1, time(), 'HTTP 503' );
}
wp_remote_request( getenv( 'SITEBEAM_STUB_URL' ) . '/__stub/emails', array( 'method' => 'DELETE' ) );
$sitebeam_before = sitebeam_bench_stub_count();
$start           = hrtime( true );
$done            = Outbox_Sender::run( null );
$seconds         = ( hrtime( true ) - $start ) / 1e9;
$arrived         = sitebeam_bench_stub_count() - $sitebeam_before;
printf(
	"outbox drain: %d mails to the stub in %.2f s, %.1f mails/s (one sender; %d arrived, %d left)\n",
	$done['sent'],
	$seconds,
	$done['sent'] / $seconds,
	$arrived,
	count( Outbox::rows( 100000 ) )
);
exit( $arrived === $sitebeam_drain ? 0 : 1 );
