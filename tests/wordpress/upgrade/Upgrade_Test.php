<?php
/**
 * A site that ran the previous release upgrades in place to this build and loses nothing: the previous release
 * (tests/support/previous-release.sh) is installed and configured on the test site, mail waits in its outbox while
 * the instance fails, then this build replaces it through Upload Plugin → "Replace current with uploaded"
 * (Plugin_Upgrader). Runs last on the site of tests/wordpress/env.sh, through run.sh beside it, in steps of
 * upgrade-site.php, each in a PHP process of its own; it does not load WordPress itself.
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use PHPUnit\Framework\TestCase;

final class Upgrade_Test extends TestCase {

	/** What the owner set on the previous release (over its defaults). */
	const SETTINGS = array(
		'website'          => 'upgrade.example',
		'tracker'          => true,
		'excluded_roles'   => array( 'editor' ),
		'keep_query'       => 'ref',
		'route_mail'       => true,
		'fallback'         => false,
		'contact_to'       => 'owner@upgrade.example',
		'contact_success'  => 'Thanks, said the previous release.',
		'contact_consent'  => 'I agree to be answered.',
		'contact_policy'   => 'https://upgrade.example/privacy',
		'chat_enabled'     => true,
		'chat_models'      => array( 'upgrade-model' ),
		'chat_rate_limit'  => 7,
		'chat_daily_limit' => 42,
		'chat_consent'     => 'I agree to chat.',
		'outbox_lifetime'  => 48,
		'outbox_max_mails' => 300,
	);

	/** @var array<string, mixed> Outcome of each step, by name. */
	private static $steps = array();

	/** @var string What the debug log gained while the test ran. */
	private static $log = '';

	/** @var string The marker in the subject of the mail kept in the outbox. */
	private static $marker;

	/** @var string[] The subjects of the stub's mail holding the marker, after each of the two cron runs. */
	private static $delivered = array();

	/** @var string The front page, as a visitor gets it after the upgrade. */
	private static $front_page = '';

	/** @var int Status of the administrator's first admin page after the upgrade. */
	private static $admin_status = 0;

	public static function setUpBeforeClass(): void {
		$log_path     = (string) getenv( 'SITEBEAM_WP_DEBUG_LOG' );
		$log_size     = is_file( $log_path ) ? filesize( $log_path ) : 0;
		self::$marker = 'upgrade' . bin2hex( random_bytes( 4 ) );
		$stub         = (string) getenv( 'SITEBEAM_STUB_URL' );
		try {
			self::step( 'remove' );
			self::step( 'install', (string) getenv( 'SITEBEAM_PREVIOUS_RELEASE_ZIP' ) );
			self::step(
				'configure',
				(string) json_encode( // phpcs:ignore Generic.PHP.ForbiddenFunctions -- this test does not load WordPress.
					array(
						'settings' => array( 'api_url' => $stub ) + self::SETTINGS,
						'token'    => getenv( 'SITEBEAM_API_TOKEN_FOR_TESTS' ),
					)
				)
			);
			self::$steps['before'] = self::step( 'state' );
			// The instance fails the kept mail (only it: the marker is in its body) until it recovers below.
			self::stub( 'PUT', '/__stub/faults', array( 'faults' => array( array( 'method' => 'POST', 'path_prefix' => '/v1/email', 'status' => 503, 'body_contains' => self::$marker ) ) ) );
			self::step( 'send', self::$marker );
			self::$steps['waiting'] = self::step( 'state' );
			self::step( 'replace', dirname( __DIR__, 3 ) . '/dist/sitebeam-wordpress.zip' );
			self::stub( 'DELETE', '/__stub/faults' );

			$cookie              = self::step( 'cookie' );
			self::$admin_status  = self::http_get( '/wp-admin/', array( $cookie['name'] => $cookie['value'], $cookie['auth'] => $cookie['token'] ) )['status'];
			self::$front_page    = self::http_get( '/', array() )['body'];
			self::$steps['after'] = self::step( 'state' );
			for ( $run = 0; $run < 2; $run++ ) {
				self::$steps[ 'deliver' . $run ] = self::step( 'deliver' );
				self::$delivered[ $run ]         = array_values(
					array_filter(
						array_column( array_column( self::stub( 'GET', '/__stub/emails' )['emails'], 'message' ), 'subject' ),
						static function ( $subject ) {
							return false !== strpos( $subject, self::$marker );
						}
					)
				);
			}
		} finally {
			self::stub( 'DELETE', '/__stub/faults' );
			clearstatcache();
			if ( is_file( $log_path ) ) {
				self::$log = (string) file_get_contents( $log_path, false, null, $log_size ); // phpcs:ignore WordPress.WP.AlternativeFunctions -- a local log file.
			}
		}
	}

	public function test_the_previous_release_ran_and_kept_the_mail_while_the_instance_failed() {
		$this->assertSame( getenv( 'SITEBEAM_PREVIOUS_RELEASE_VERSION' ), self::$steps['before']['version'] );
		$this->assertTrue( self::$steps['before']['active'] );
		$this->assertTrue( self::$steps['send']['sent'], 'wp_mail() answered false: the previous release did not keep the mail' );
		$this->assertSame( array( 'upgrade@example.com' ), array_column( self::$steps['waiting']['outbox'], 'recipient' ) );
	}

	public function test_the_upload_replaced_the_plugin_and_left_it_active() {
		$this->assertTrue( self::$steps['replace']['installed'], 'Plugin_Upgrader: ' . self::$steps['replace']['error'] . ' ' . implode( ' ', self::$steps['replace']['messages'] ) );
		$this->assertSame( 'sitebeam/sitebeam.php', self::$steps['replace']['plugin'] );
		$this->assertSame( self::current_version(), self::$steps['after']['version'] );
		$this->assertTrue( self::$steps['after']['active'] );
		$this->assertSame( 200, self::$admin_status );
	}

	public function test_every_setting_and_the_token_are_kept() {
		$kept = array_intersect_key( self::$steps['after']['settings'], self::SETTINGS + array( 'api_url' => '' ) );
		$this->assertEquals( array( 'api_url' => getenv( 'SITEBEAM_STUB_URL' ) ) + self::SETTINGS, $kept );
		$this->assertSame( getenv( 'SITEBEAM_API_TOKEN_FOR_TESTS' ), self::$steps['after']['token'] );
		// What the previous release had on top of these (its defaults) is kept too.
		$this->assertEquals( array_intersect_key( self::$steps['before']['settings'], self::$steps['after']['settings'] ), array_intersect_key( self::$steps['after']['settings'], self::$steps['before']['settings'] ) );
	}

	public function test_the_mail_kept_in_the_outbox_is_delivered_once_after_the_instance_recovers() {
		$this->assertSame( array( 'upgrade@example.com' ), array_column( self::$steps['after']['outbox'], 'recipient' ) );
		$this->assertSame( array( self::$marker . ' kept across the upgrade' ), self::$delivered[0] );
		$this->assertSame( array(), self::$steps['deliver0']['outbox'] );
		$this->assertSame( self::$delivered[0], self::$delivered[1], 'a second cron run sent it again' );
	}

	public function test_the_tracker_is_still_on_the_pages() {
		$page = new \DOMDocument();
		libxml_use_internal_errors( true ); // libxml does not know HTML5's elements.
		$this->assertTrue( $page->loadHTML( self::$front_page ) );
		$tags = ( new \DOMXPath( $page ) )->query( '//script[@data-api]' );
		$this->assertSame( 1, $tags->length, 'the tracker tag on the front page' );
		$tag = $tags->item( 0 );
		$this->assertSame( getenv( 'SITEBEAM_STUB_URL' ), $tag->getAttribute( 'data-api' ) );
		$this->assertSame( 'upgrade.example', $tag->getAttribute( 'data-website' ) );
		$this->assertStringEndsWith( '/plugins/sitebeam/assets/js/sitebeam.min.js?ver=' . self::current_version(), $tag->getAttribute( 'src' ) );
		$this->assertStringContainsString( '<img src="' . getenv( 'SITEBEAM_STUB_URL' ) . '/v1/tracker/img/upgrade.example', self::$front_page );
	}

	public function test_no_upgrade_is_left_pending() {
		$after = self::$steps['after'];
		$this->assertSame( $after['outbox_code_version'], $after['outbox_db_version'], 'the outbox table was not upgraded' );
		$this->assertSame( $after['capabilities_code'], $after['capabilities_version'], 'the capabilities were not upgraded on the first admin page' );
	}

	public function test_no_php_notice_warning_or_deprecation_names_the_plugin() {
		// The site's own folder is named sitebeam-wp.*: only paths inside the plugin and its handles count.
		$root  = (string) getenv( 'SITEBEAM_WP_ROOT' );
		$lines = array_filter(
			explode( "\n", str_replace( $root, '', self::$log ) ),
			static function ( $line ) {
				return 1 === preg_match( '/sitebeam/i', $line );
			}
		);
		$this->assertSame( array(), array_values( $lines ), "the debug log while the upgrade ran:\n" . self::$log );
	}

	/**
	 * The version in this build's plugin header.
	 */
	private static function current_version() {
		preg_match( '/^ \* Version:\s*(\S+)/m', (string) file_get_contents( dirname( __DIR__, 3 ) . '/wordpress-plugin/sitebeam.php' ), $version ); // phpcs:ignore WordPress.WP.AlternativeFunctions -- a local source file.
		return $version[1];
	}

	/**
	 * Runs one step of upgrade-site.php and gives its JSON outcome.
	 *
	 * @param string $step     The step.
	 * @param string $argument Its argument.
	 * @return array<string, mixed>
	 */
	private static function step( $step, $argument = '' ) {
		// The PHP running this test is the site's (run.sh runs PHPUnit on it; inside tests/support/php84's root it is
		// that root's own).
		$output  = self::execute( PHP_BINARY, __DIR__ . '/upgrade-site.php', $step, $argument );
		$lines   = explode( "\n", $output );
		$outcome = json_decode( (string) end( $lines ), true );
		if ( ! is_array( $outcome ) ) {
			throw new \RuntimeException( "upgrade-site.php $step printed no outcome:\n$output" );
		}
		self::$steps[ $step ] = $outcome;
		return $outcome;
	}

	/**
	 * Runs a command and gives what it printed; throws when it fails.
	 *
	 * @param string ...$command The program and its arguments.
	 */
	private static function execute( ...$command ) {
		$process = proc_open( $command, array( 1 => array( 'pipe', 'w' ), 2 => array( 'redirect', 1 ) ), $pipes );
		$output  = (string) stream_get_contents( $pipes[1] );
		if ( 0 !== proc_close( $process ) ) {
			throw new \RuntimeException( implode( ' ', $command ) . " failed:\n$output" );
		}
		return trim( $output );
	}

	/**
	 * One call to the stub's own API.
	 *
	 * @param string     $method Method.
	 * @param string     $path   Path.
	 * @param array|null $body   JSON body.
	 * @return array<string, mixed>
	 */
	private static function stub( $method, $path, $body = null ) {
		$options = array( CURLOPT_CUSTOMREQUEST => $method );
		if ( null !== $body ) {
			$options[ CURLOPT_POSTFIELDS ] = json_encode( $body ); // phpcs:ignore Generic.PHP.ForbiddenFunctions -- this test does not load WordPress.
			$options[ CURLOPT_HTTPHEADER ] = array( 'Content-Type: application/json' );
		}
		$answer = self::http( getenv( 'SITEBEAM_STUB_URL' ) . $path, $options );
		if ( $answer['status'] >= 300 ) {
			throw new \RuntimeException( "stub $method $path: {$answer['status']} {$answer['body']}" );
		}
		return (array) json_decode( $answer['body'], true );
	}

	/**
	 * GET of a page of the site with cookies (redirects are not followed).
	 *
	 * @param string                $path    Path.
	 * @param array<string, string> $cookies Cookies.
	 * @return array{status: int, body: string}
	 */
	private static function http_get( $path, array $cookies ) {
		$pairs = array();
		foreach ( $cookies as $name => $value ) {
			$pairs[] = $name . '=' . rawurlencode( $value );
		}
		return self::http( getenv( 'SITEBEAM_WP_URL' ) . $path, array( CURLOPT_COOKIE => implode( '; ', $pairs ) ) );
	}

	/**
	 * One HTTP request.
	 *
	 * @param string            $url     URL.
	 * @param array<int, mixed> $options curl options.
	 * @return array{status: int, body: string}
	 */
	private static function http( $url, array $options ) {
		$curl = curl_init( $url );
		curl_setopt_array( $curl, $options + array( CURLOPT_RETURNTRANSFER => true, CURLOPT_TIMEOUT => 120 ) );
		$body = curl_exec( $curl ); // phpcs:ignore Generic.PHP.ForbiddenFunctions -- this test does not load WordPress.
		if ( false === $body ) {
			throw new \RuntimeException( "$url: " . curl_error( $curl ) );
		}
		return array(
			'status' => (int) curl_getinfo( $curl, CURLINFO_RESPONSE_CODE ),
			'body'   => (string) $body,
		);
	}
}
