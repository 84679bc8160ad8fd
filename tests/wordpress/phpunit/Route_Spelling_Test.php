<?php
/**
 * WordPress matches REST routes without regard to case, and reads them from /wp-json/… or ?rest_route=…, with or
 * without a trailing slash, percent-encoded or not: every spelling of the contact and chat routes gets the answers
 * of the canonical one, over real HTTP to the served site (issue #30, item 1). Before the fix, /CONTACT skipped the
 * rate limit, the honeypot, the ticket, the Host check, the media type and the size limit.
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use PHPUnit\Framework\Attributes\DataProvider;
use Sitebeam\Contract;

final class Route_Spelling_Test extends Plugin_Test_Case {

	const OTHER_ORIGIN = 'https://evil.example';

	/**
	 * @return array<string, array{0: string}> Path and query after the site's address, {route} for the route's last part.
	 */
	public static function contact_spellings() {
		return array(
			'canonical'              => array( '/wp-json/sitebeam/v1/contact' ),
			'upper case'             => array( '/wp-json/sitebeam/v1/CONTACT' ),
			'mixed case'             => array( '/wp-json/SiteBeam/V1/Contact' ),
			'rest_route'             => array( '/?rest_route=/sitebeam/v1/contact' ),
			'rest_route, mixed case' => array( '/?rest_route=/sitebeam/v1/Contact' ),
			'trailing slash'         => array( '/wp-json/sitebeam/v1/contact/' ),
			'upper case and slash'   => array( '/wp-json/sitebeam/v1/CONTACT/' ),
			'percent-encoded'        => array( '/wp-json/sitebeam/v1/%63ontact' ),
			'percent-encoded, upper' => array( '/wp-json/sitebeam/v1/%43ONTACT' ),
			'rest_route, encoded'    => array( '/?rest_route=%2Fsitebeam%2Fv1%2FCONT%41CT' ),
		);
	}

	/**
	 * @return array<string, array{0: string}>
	 */
	public static function chat_spellings() {
		return array(
			'canonical'       => array( '/wp-json/sitebeam/v1/chat' ),
			'upper case'      => array( '/wp-json/sitebeam/v1/CHAT' ),
			'rest_route'      => array( '/?rest_route=/Sitebeam/v1/Chat' ),
			'trailing slash'  => array( '/wp-json/sitebeam/v1/Chat/' ),
			'percent-encoded' => array( '/wp-json/sitebeam/v1/%43hat' ),
		);
	}

	protected function setUp(): void {
		parent::setUp();
		self::forget_rate_limits();
	}

	protected function tearDown(): void {
		self::forget_rate_limits();
		parent::tearDown();
	}

	/**
	 * Five posts, each refused for another reason but the first, count towards the rate; the sixth is refused for it;
	 * one mail reaches the instance.
	 *
	 * @dataProvider contact_spellings
	 *
	 * @param string $spelling The route as the request spells it.
	 */
	#[DataProvider( 'contact_spellings' )]
	public function test_the_contact_guard_holds_on_every_spelling( $spelling ) {
		$answers = array(
			'valid'          => $this->post( $spelling, self::contact_post() ),
			'honeypot'       => $this->post( $spelling, self::contact_post( array( Contract::CONTACT_FIELD_HONEYPOT => 'http://spam.example' ) ) ),
			'no ticket'      => $this->post( $spelling, self::contact_post( array( Contract::CONTACT_FIELD_TICKET => null ) ) ),
			'text/plain'     => $this->post( $spelling, 'name=Eve', 'text/plain' ),
			'over 64 KiB'    => $this->post( $spelling, self::contact_post( array( 'message' => str_repeat( 'm', Contract::CONTACT_BODY_MAX_BYTES ) ) ) ),
			'over the limit' => $this->post( $spelling, self::contact_post() ),
		);
		$this->assertSame(
			array(
				'valid'          => array( 200, null, null ),
				'honeypot'       => array( 400, 'spam_suspected', null ),
				'no ticket'      => array( 400, 'spam_suspected', 'ticket' ),
				'text/plain'     => array( 415, 'unsupported_media_type', null ),
				'over 64 KiB'    => array( 413, 'payload_too_large', null ),
				'over the limit' => array( 429, 'rate_limited', null ),
			),
			array_map( array( self::class, 'summary' ), $answers )
		);
		$this->assertGreaterThan( 0, (int) ( $answers['over the limit']['headers']['retry-after'] ?? 0 ), 'Retry-After' );
		$this->assertSame( 'GET, POST, OPTIONS', $answers['text/plain']['headers']['allow'] ?? null );
		$this->assertCount( 1, Stub::messages(), 'only the valid post reached the instance' );

		self::forget_rate_limits();
		$bad_host = $this->post( $spelling, self::contact_post(), 'application/json', array( 'Host: -not-a-host-' ) );
		$this->assertSame( array( 400, 'invalid_request', null ), self::summary( $bad_host ) );
		$form_post = $this->post( $spelling, http_build_query( self::contact_post( array( Contract::CONTACT_FIELD_HONEYPOT => 'x' ) ) ), 'application/x-www-form-urlencoded' );
		$this->assertSame( 400, $form_post['status'] );
		$this->assertStringStartsWith( 'text/html', $form_post['headers']['content-type'] ?? '', 'a post without JavaScript gets a page' );
		$preflight = Raw_Http::send( $this->url( $spelling ), 'OPTIONS', array( 'Origin: ' . self::OTHER_ORIGIN, 'Access-Control-Request-Method: POST' ), null );
		$this->assertSame( array( 403, 'forbidden_origin', null ), self::summary( $preflight ) );
		$this->assertCount( 1, Stub::messages() );
	}

	/**
	 * A page of another origin reads nothing of the chat, and no answer is cached, however the route is spelt.
	 *
	 * @dataProvider chat_spellings
	 *
	 * @param string $spelling The route as the request spells it.
	 */
	#[DataProvider( 'chat_spellings' )]
	public function test_the_chat_headers_hold_on_every_spelling( $spelling ) {
		$answer = Raw_Http::send( $this->url( $spelling ), 'GET', array( 'Origin: ' . self::OTHER_ORIGIN ), null );
		$this->assertSame( array( 403, 'forbidden_origin', null ), self::summary( $answer ) );
		$this->assertArrayNotHasKey( 'access-control-allow-origin', $answer['headers'], 'WordPress lets every origin read REST answers' );
		$this->assertArrayNotHasKey( 'access-control-allow-credentials', $answer['headers'] );
		$this->assertSame( 'no-store', $answer['headers']['cache-control'] ?? null );
		$this->assertSame( Contract::CHAT_ALLOWED_METHODS, $answer['headers']['allow'] ?? null );

		$preflight = Raw_Http::send( $this->url( $spelling ), 'OPTIONS', array( 'Origin: ' . self::OTHER_ORIGIN, 'Access-Control-Request-Method: POST' ), null );
		$this->assertSame( array( 403, 'forbidden_origin', null ), self::summary( $preflight ) );
	}

	/**
	 * Status, i18n_code and field of an answer.
	 *
	 * @param array{status: int, headers: array<string, string>, body: string} $answer An answer.
	 * @return array{0: int, 1: string|null, 2: string|null}
	 */
	private static function summary( array $answer ) {
		$data = json_decode( $answer['body'], true );
		return array( $answer['status'], $data['i18n_code'] ?? null, $data['field'] ?? null );
	}

	/**
	 * @param string $spelling Path and query.
	 */
	private function url( $spelling ) {
		return untrailingslashit( (string) getenv( 'SITEBEAM_WP_URL' ) ) . $spelling;
	}

	/**
	 * Posts from this site's own page, as the form does.
	 *
	 * @param string                       $spelling     The route as spelt.
	 * @param array<string, string>|string $body         Fields, sent as JSON, or a raw body.
	 * @param string                       $content_type Content-Type.
	 * @param string[]                     $extra        More header lines.
	 */
	private function post( $spelling, $body, $content_type = 'application/json', array $extra = array() ) {
		$self  = untrailingslashit( (string) getenv( 'SITEBEAM_WP_URL' ) );
		$lines = array_merge( array( 'Origin: ' . $self, 'Referer: ' . $self . '/contact/' ), $extra );
		$lines = array_merge( $lines, Raw_Http::header_lines( array(), $content_type, false ) );
		return Raw_Http::send( $this->url( $spelling ), 'POST', $lines, is_array( $body ) ? (string) wp_json_encode( $body ) : $body );
	}

	/** Every visitor's rate-limit counters, on the served site too (its database is this one). */
	private static function forget_rate_limits() {
		global $wpdb;
		$wpdb->query( "DELETE FROM {$wpdb->options} WHERE option_name LIKE '\\_transient\\_%sitebeam\\_rl\\_%' OR option_name LIKE 'sitebeam\\_rl\\_%'" ); // phpcs:ignore WordPress.DB -- test fixture.
	}
}
