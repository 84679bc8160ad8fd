<?php
/**
 * wp_mail through the plugin to the real stub.
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use Sitebeam\Mail\Send_Log;
use Sitebeam\Settings;

final class Api_Mailer_Test extends Plugin_Test_Case {

	/** @var \WP_Error[] */
	private $failures = array();

	/** @var string[][] Recipients WordPress's own mailer was given. */
	private $wordpress_mailer = array();

	protected function setUp(): void {
		parent::setUp();
		add_action(
			'wp_mail_failed',
			function ( $error ) {
				$this->failures[] = $error;
			}
		);
		add_action(
			'phpmailer_init',
			function ( $phpmailer ) {
				$this->wordpress_mailer[] = array_column( $phpmailer->getToAddresses(), 0 );
			}
		);
	}

	public function test_every_to_cc_and_bcc_recipient_gets_a_copy_addressed_to_them_alone() {
		$files = array( $this->file( 'one.txt', 'first file' ), $this->file( 'two.txt', 'second file' ) );
		$sent  = wp_mail(
			array( 'Ann <ann@example.com>', 'bob@example.com' ),
			'Quarterly report',
			"Numbers\nattached",
			array( 'Cc: carol@example.com', 'Bcc: secret@example.com', 'Reply-To: desk@example.com' ),
			$files
		);
		array_map( 'wp_delete_file', $files );

		$this->assertTrue( $sent );
		$messages = Stub::messages();
		$this->assertSame( array( 'ann@example.com', 'bob@example.com', 'carol@example.com', 'secret@example.com' ), array_column( $messages, 'to' ) );
		foreach ( $messages as $message ) {
			$this->assertSame( 'Quarterly report', $message['subject'] );
			$this->assertSame( "Numbers<br>\nattached", $message['content'] );
			$this->assertSame( 'desk@example.com', $message['replyto'] );
			$this->assertSame( 'attachments.zip', $message['attachment']['file_name'] );
			$this->assertArrayNotHasKey( 'bcc', $message );
			if ( 'secret@example.com' !== $message['to'] ) {
				$this->assertStringNotContainsString( 'secret@example.com', (string) wp_json_encode( $message ) );
			}
		}
		$this->assertSame( Send_Log::SENT, Send_Log::entries()[0]['result'] );
		$this->assertSame( array(), $this->wordpress_mailer, 'WordPress must not send the mail a second time' );
	}

	public function test_password_reset_mail_reaches_the_user() {
		$this->assertTrue( retrieve_password( getenv( 'SITEBEAM_WP_ADMIN_USER' ) ) );
		$messages = Stub::messages();
		$this->assertCount( 1, $messages );
		$this->assertSame( 'admin@example.com', $messages[0]['to'] );
		$this->assertStringContainsString( 'action=rp', $messages[0]['content'] );
	}

	public function test_api_refusal_without_fallback_fires_wp_mail_failed() {
		$this->set_settings( array( 'fallback' => false ) );
		Stub::faults(
			array(
				'status'        => 400,
				'body_contains' => 'Hello refused-one',
			)
		);
		$this->assertFalse( wp_mail( 'ann@example.com', 'Hello refused-one', 'Body' ) );
		$this->assertCount( 1, $this->failures );
		$this->assertSame( 'wp_mail_failed', $this->failures[0]->get_error_code() );
		$this->assertSame( array( 'ann@example.com' ), $this->failures[0]->get_error_data()['failed_recipients'] );
		$this->assertSame( array(), $this->wordpress_mailer );
		$this->assertSame( Send_Log::FAILED, Send_Log::entries()[0]['result'] );
	}

	public function test_api_refusal_with_fallback_hands_the_mail_to_wordpress() {
		$this->set_settings( array( 'fallback' => true ) );
		Stub::faults(
			array(
				'status'        => 400,
				'body_contains' => 'Hello refused-two',
			)
		);
		wp_mail( array( 'ann@example.com', 'bob@example.com' ), 'Hello refused-two', 'Body' );
		$this->assertSame( array( array( 'ann@example.com', 'bob@example.com' ) ), $this->wordpress_mailer );
		// The test site has no sendmail: WordPress's own mailer fails too, and the log says so.
		$this->assertSame( array( Send_Log::FALLBACK_FAILED, Send_Log::FALLBACK_FAILED ), array_column( array_slice( Send_Log::entries(), 0, 2 ), 'result' ) );
	}

	public function test_partial_failure_falls_back_for_the_missing_recipient_only() {
		$this->set_settings( array( 'fallback' => true ) );
		Stub::faults(
			array(
				'status'        => 400,
				'times'         => 1,
				// Ann's copy is refused, the Bcc copy (the same mail, to another address) is sent.
				'body_contains' => '"to":"ann@example.com"',
			)
		);
		wp_mail( 'ann@example.com', 'Hello refused-three', 'Body', array( 'Bcc: secret@example.com' ) );
		$this->assertSame( array( 'secret@example.com' ), array_column( Stub::messages(), 'to' ) );
		$this->assertSame( array( array( 'ann@example.com' ) ), $this->wordpress_mailer );
	}

	public function test_the_fallback_is_off_unless_the_owner_chose_it_so_a_refused_mail_never_leaves_through_mail() {
		$stored = (array) get_option( Settings::OPTION );
		unset( $stored['fallback'] );
		update_option( Settings::OPTION, $stored );
		$this->assertFalse( Settings::get()['fallback'], 'off on a site that never chose' );
		Stub::faults(
			array(
				'status'        => 400,
				'body_contains' => 'Hello refused-four',
			)
		);
		$this->assertFalse( wp_mail( 'ann@example.com', 'Hello refused-four', 'Body' ) );
		$this->assertSame( array(), $this->wordpress_mailer, 'PHP\'s mailer was never given it' );
		$this->assertSame( Send_Log::FAILED, Send_Log::entries()[0]['result'] );

		// A site that saved its settings with the fallback on keeps that choice.
		$this->set_settings( array( 'fallback' => true ) );
		wp_mail( 'ann@example.com', 'Hello refused-four', 'Body' );
		$this->assertSame( array( array( 'ann@example.com' ) ), $this->wordpress_mailer );
	}

	public function test_wrong_token_is_reported_in_words() {
		$this->set_settings( array( 'fallback' => false ) );
		update_option( Settings::TOKEN_OPTION, 'wrong-token', false );
		$this->assertFalse( wp_mail( 'ann@example.com', 'Hello', 'Body' ) );
		$this->assertStringContainsString( 'the token is wrong', $this->failures[0]->get_error_message() );
		$this->assertStringContainsString( 'the token is wrong', Send_Log::entries()[0]['detail'] );
	}

	public function test_routing_off_leaves_mail_to_wordpress() {
		$this->set_settings( array( 'route_mail' => false ) );
		wp_mail( 'ann@example.com', 'Hello', 'Body' );
		$this->assertSame( array(), Stub::messages() );
		$this->assertSame( array( array( 'ann@example.com' ) ), $this->wordpress_mailer );
	}

	public function test_log_keeps_the_last_fifty_without_bodies() {
		for ( $i = 1; $i <= 52; $i++ ) {
			Send_Log::record( array( "r$i@example.com" ), "Subject $i", Send_Log::SENT );
		}
		$entries = Send_Log::entries();
		$this->assertCount( 50, $entries );
		$this->assertSame( 'Subject 52', $entries[0]['subject'] );
		$this->assertSame( array( 'time', 'recipients', 'subject', 'result', 'detail' ), array_keys( $entries[0] ) );
	}

	/**
	 * @param string $name    File name.
	 * @param string $content Content.
	 */
	private function file( $name, $content ) {
		$path = get_temp_dir() . 'sitebeam-' . wp_generate_password( 6, false ) . '-' . $name;
		file_put_contents( $path, $content ); // phpcs:ignore -- test fixture.
		return $path;
	}
}
