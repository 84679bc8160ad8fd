<?php
/**
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use Sitebeam\Mail\Send_Log;
use Sitebeam\Privacy\Policy_Text;
use Sitebeam\Settings;

final class Privacy_Test extends Plugin_Test_Case {

	public function test_the_exporter_registered_with_wordpress_exports_only_the_sends_to_that_address() {
		Send_Log::record( array( 'ana@example.com' ), 'Your order', Send_Log::SENT );
		Send_Log::record( array( 'bob@example.org' ), 'Not Ana', Send_Log::SENT );
		Send_Log::record( array( 'Owner <owner@example.org>', 'Ana <ANA@example.com>' ), 'Copy to Ana', Send_Log::FAILED, 'refused' );

		$exporter = apply_filters( 'wp_privacy_personal_data_exporters', array() )['sitebeam-send-log'];
		$export   = call_user_func( $exporter['callback'], 'ana@example.com', 1 );

		$this->assertTrue( $export['done'] );
		$this->assertCount( 2, $export['data'] );
		$subjects = array();
		foreach ( $export['data'] as $item ) {
			$this->assertSame( 'sitebeam-send-log', $item['group_id'] );
			$values     = array_column( $item['data'], 'value', 'name' );
			$subjects[] = $values['Subject'];
			$this->assertStringContainsStringIgnoringCase( 'ana@example.com', $values['Recipient'] );
			$this->assertStringNotContainsString( 'owner@example.org', $values['Recipient'] );
		}
		$this->assertSame( array( 'Copy to Ana', 'Your order' ), $subjects );
	}

	public function test_the_eraser_registered_with_wordpress_removes_the_sends_to_that_address_and_keeps_the_others() {
		Send_Log::record( array( 'ana@example.com' ), 'Your order', Send_Log::SENT );
		Send_Log::record( array( 'bob@example.org' ), 'Not Ana', Send_Log::SENT );
		Send_Log::record( array( 'Ana <ana@EXAMPLE.com>' ), 'Again', Send_Log::SENT );

		$eraser = apply_filters( 'wp_privacy_personal_data_erasers', array() )['sitebeam-send-log'];
		$result = call_user_func( $eraser['callback'], 'ana@example.com', 1 );

		$this->assertTrue( $result['items_removed'] );
		$this->assertFalse( $result['items_retained'] );
		$this->assertTrue( $result['done'] );
		$this->assertSame( array( 'Not Ana' ), array_column( Send_Log::entries(), 'subject' ) );
		$this->assertFalse( call_user_func( $eraser['callback'], 'ana@example.com', 1 )['items_removed'] );
	}

	public function test_the_policy_text_names_the_instance_and_what_each_enabled_feature_sends() {
		$html = self::policy_with_every_feature( true );
		$this->assertStringContainsString( 'api.example.net', $html );
		$this->assertStringContainsString( 'IP address', $html );
		$this->assertStringContainsString( 'contact form', $html );
		$this->assertStringContainsString( 'chat', $html );
		$this->assertStringContainsString( 'last ' . Send_Log::SIZE . ' sends, and beyond them of up to ' . Send_Log::UNDELIVERED_KEPT . ' mails that failed or were deleted unsent', $html );
		$this->assertStringContainsString( 'one entry per recipient: each entry names only that recipient’s own address', $html );
		$this->assertStringContainsString( 'for at most 72 hours; one given up is kept 30 days', $html, 'the outbox, with its content' );

		$quiet = self::policy_with_every_feature( false );
		$this->assertStringNotContainsString( 'IP address', $quiet );
		$this->assertStringNotContainsString( 'chat', $quiet );
		$this->assertStringNotContainsString( 'last 50', $quiet );
		$this->assertStringContainsString( 'contact form', $quiet );
	}

	/**
	 * The policy text of a site on api.example.net with the tracker, the chat and the routed mail all on or all off.
	 *
	 * @param bool $on Whether the features are on.
	 */
	private static function policy_with_every_feature( $on ) {
		return Policy_Text::html(
			array_merge(
				Settings::get(),
				array(
					'api_url'      => 'https://api.example.net',
					'tracker'      => $on,
					'chat_enabled' => $on,
					'route_mail'   => $on,
				)
			)
		);
	}
}
