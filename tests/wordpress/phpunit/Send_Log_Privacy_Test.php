<?php
/**
 * The send log's exporter and eraser disclose and touch no one but the requester (issue #30, item 3): a mail to
 * alice with carol in Cc and bob in Bcc, sent through the plugin's mailer to the stub.
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use Sitebeam\Mail\Send_Log;

final class Send_Log_Privacy_Test extends Plugin_Test_Case {

	const ALICE = 'alice@example.com';
	const BOB   = 'bob-secret@example.net';
	const CAROL = 'carol@example.org';

	public function test_an_export_lists_only_the_requesters_own_address() {
		$this->assertTrue( wp_mail( self::ALICE, 'Minutes', 'Hello', array( 'Bcc: ' . self::BOB, 'Cc: Carol <' . self::CAROL . '>' ) ) );
		$this->assertCount( 3, Stub::messages(), 'each recipient got their copy' );

		$export = $this->export( self::ALICE );
		$this->assertCount( 1, $export['data'] );
		$values = array_column( $export['data'][0]['data'], 'value', 'name' );
		$this->assertSame( self::ALICE, $values['Recipient'] );
		$this->assertSame( 'Minutes', $values['Subject'] );
		$text = (string) wp_json_encode( $export );
		$this->assertStringNotContainsString( self::BOB, $text );
		$this->assertStringNotContainsString( self::CAROL, $text );

		$carol = (string) wp_json_encode( $this->export( self::CAROL ) );
		$this->assertStringContainsString( self::CAROL, $carol );
		$this->assertStringNotContainsString( self::BOB, $carol, 'a Cc learns nothing of the Bcc' );
		$this->assertStringNotContainsString( self::ALICE, $carol );
	}

	public function test_the_log_stores_nothing_a_recipients_export_would_have_to_hide() {
		wp_mail( array( self::ALICE, self::CAROL ), 'Minutes', 'Hello', array( 'Bcc: ' . self::BOB ) );
		$stored = get_option( Send_Log::OPTION );
		$this->assertCount( 3, $stored );
		foreach ( $stored as $entry ) {
			$this->assertCount( 1, $entry['recipients'], 'one recipient an entry' );
		}
		$this->assertEqualsCanonicalizing( array( self::ALICE, self::CAROL, self::BOB ), array_merge( ...array_column( $stored, 'recipients' ) ) );
	}

	public function test_erasing_an_address_removes_that_address_only() {
		wp_mail( self::ALICE, 'Minutes', 'Hello', array( 'Bcc: ' . self::BOB, 'Cc: ' . self::CAROL ) );
		$result = $this->erase( self::CAROL );
		$this->assertTrue( $result['items_removed'] );
		$this->assertCount( 1, $this->export( self::ALICE )['data'], 'alice keeps her entry' );
		$this->assertCount( 1, $this->export( self::BOB )['data'], 'bob keeps his' );
		$this->assertCount( 0, $this->export( self::CAROL )['data'] );
	}

	public function test_an_entry_an_earlier_version_logged_for_several_recipients_discloses_no_one_else() {
		update_option(
			Send_Log::OPTION,
			array(
				array(
					'time'       => time(),
					'recipients' => array( self::ALICE, 'Carol <' . self::CAROL . '>', self::BOB ),
					'subject'    => 'Logged before',
					'result'     => Send_Log::SENT,
					'detail'     => '',
				),
			),
			false
		);
		$text = (string) wp_json_encode( $this->export( self::ALICE ) );
		$this->assertStringContainsString( 'Logged before', $text );
		$this->assertStringNotContainsString( self::BOB, $text );
		$this->assertStringNotContainsString( self::CAROL, $text );

		$this->assertTrue( $this->erase( self::CAROL )['items_removed'] );
		$this->assertCount( 1, $this->export( self::ALICE )['data'] );
		$this->assertCount( 1, $this->export( self::BOB )['data'] );
		$this->assertCount( 0, $this->export( self::CAROL )['data'] );
		$this->assertStringNotContainsString( self::CAROL, (string) wp_json_encode( get_option( Send_Log::OPTION ) ) );
	}

	/**
	 * @param string $address The requester.
	 * @return array{data: array<int, array<string, mixed>>, done: bool}
	 */
	private function export( $address ) {
		$exporter = apply_filters( 'wp_privacy_personal_data_exporters', array() )['sitebeam-send-log'];
		return call_user_func( $exporter['callback'], $address, 1 );
	}

	/**
	 * @param string $address The requester.
	 * @return array{items_removed: bool, items_retained: bool, messages: string[], done: bool}
	 */
	private function erase( $address ) {
		$eraser = apply_filters( 'wp_privacy_personal_data_erasers', array() )['sitebeam-send-log'];
		return call_user_func( $eraser['callback'], $address, 1 );
	}
}
