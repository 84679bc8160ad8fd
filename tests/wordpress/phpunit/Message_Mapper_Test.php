<?php
/**
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use Sitebeam\Mail\Message_Mapper;
use Sitebeam\Mail\Outgoing_Mail;
use ZipArchive;

final class Message_Mapper_Test extends Plugin_Test_Case {

	/** @var string[] */
	private $files = array();

	protected function tearDown(): void {
		array_map( 'wp_delete_file', $this->files );
		parent::tearDown();
	}

	public function test_plain_text_becomes_escaped_html_with_line_breaks() {
		$mail = $this->map( array( 'message' => "Hello <b>you</b> & co\nSecond line" ) );
		$this->assertSame( "Hello &lt;b&gt;you&lt;/b&gt; &amp; co<br>\nSecond line", $mail->fields['content'] );
	}

	public function test_html_is_kept_as_it_is_from_header_or_filter() {
		$html = '<p>Hi <strong>there</strong></p>';
		$this->assertSame( $html, $this->map( array( 'message' => $html, 'headers' => 'Content-Type: text/html; charset=UTF-8' ) )->fields['content'] );
		add_filter(
			'wp_mail_content_type',
			static function () {
				return 'text/html';
			}
		);
		$this->assertSame( $html, $this->map( array( 'message' => $html ) )->fields['content'] );
	}

	public function test_every_recipient_once_in_to_cc_bcc_order() {
		$mail = $this->map(
			array(
				'to'      => array( 'One <one@example.com>, two@example.com', 'ONE@example.com' ),
				'headers' => array( 'Cc: cc@example.com', 'Bcc: hidden@example.com, two@example.com' ),
			)
		);
		$this->assertSame( array( 'one@example.com', 'two@example.com', 'cc@example.com', 'hidden@example.com' ), $mail->recipients );
		$message = $mail->message_for( 'hidden@example.com' );
		$this->assertSame( 'hidden@example.com', $message['to'] );
		$this->assertArrayNotHasKey( 'bcc', $message );
		$this->assertArrayNotHasKey( 'cc', $message );
	}

	public function test_from_header_then_wordpress_filters() {
		$mail = $this->map( array( 'headers' => "From: Shop <shop@example.com>\nReply-To: Help <help@example.com>, other@example.com" ) );
		$this->assertSame( 'shop@example.com', $mail->fields['from'] );
		$this->assertSame( 'Shop', $mail->fields['from_name'] );
		$this->assertSame( 'help@example.com', $mail->fields['replyto'] );

		add_filter(
			'wp_mail_from',
			static function () {
				return 'filtered@example.com';
			}
		);
		add_filter(
			'wp_mail_from_name',
			static function () {
				return 'Filtered';
			}
		);
		$mail = $this->map( array() );
		$this->assertSame( 'filtered@example.com', $mail->fields['from'] );
		$this->assertSame( 'Filtered', $mail->fields['from_name'] );
	}

	public function test_default_sender_is_wordpress_at_the_site_host_when_that_is_an_address() {
		$mail = $this->map( array() );
		$this->assertSame( 'WordPress', $mail->fields['from_name'] );
		$this->assertArrayNotHasKey( 'from', $mail->fields, 'wordpress@127.0.0.1 breaks the address rule: the account\'s own sender is used' );

		$site_host = static function () {
			return 'https://www.shop.example';
		};
		add_filter( 'home_url', $site_host );
		try {
			$this->assertSame( 'wordpress@shop.example', $this->map( array() )->fields['from'] );
		} finally {
			remove_filter( 'home_url', $site_host );
		}
	}

	public function test_subject_line_breaks_are_folded() {
		$this->assertSame( 'Two lines', $this->map( array( 'subject' => "Two\r\n lines" ) )->fields['subject'] );
	}

	public function test_control_characters_are_dropped_and_a_long_subject_is_shortened_to_the_api_limit() {
		$this->assertSame( 'Tab and bell gone', $this->map( array( 'subject' => "Tab\t and bell\x07 gone" ) )->fields['subject'] );
		$this->assertSame( 'Line one line two', $this->map( array( 'subject' => "Line one\u{2028}line two" ) )->fields['subject'] );
		$exact = str_repeat( 'é', 998 );
		$this->assertSame( $exact, $this->map( array( 'subject' => $exact ) )->fields['subject'] );
		$shortened = $this->map( array( 'subject' => str_repeat( 'é', 1200 ) ) )->fields['subject'];
		$this->assertSame( 998, mb_strlen( $shortened, 'UTF-8' ) );
		$this->assertSame( '…', mb_substr( $shortened, -1, 1, 'UTF-8' ) );
	}

	public function test_an_attachment_over_the_api_limit_is_an_error_so_the_send_fails_or_falls_back() {
		$path   = $this->file( 'big.bin', str_repeat( 'x', 10 * 1048576 + 1 ) );
		$result = Message_Mapper::map(
			array(
				'to'          => 'a@example.com',
				'attachments' => array( $path ),
			)
		);
		$this->assertInstanceOf( \WP_Error::class, $result );
		$this->assertStringContainsString( 'big.bin', $result->get_error_message() );
		$this->assertIsArray( $this->map( array( 'attachments' => array( $this->file( 'limit.bin', str_repeat( 'x', 10 * 1048576 ) ) ) ) )->fields['attachment'] );
	}

	public function test_latin1_message_is_converted_to_utf8() {
		$mail = $this->map( array( 'message' => "Caf\xe9", 'headers' => 'Content-Type: text/plain; charset=ISO-8859-1' ) );
		$this->assertSame( 'Café', $mail->fields['content'] );
	}

	public function test_one_attachment_is_sent_as_it_is() {
		$mail  = $this->map( array( 'attachments' => array( $this->file( 'report.pdf', '%PDF-1.4 fake' ) ) ) );
		$block = $mail->fields['attachment'];
		$this->assertSame( 'application/pdf', $block['mime_type'] );
		$this->assertSame( 'report.pdf', $block['file_name'] );
		$this->assertSame( '%PDF-1.4 fake', base64_decode( $block['b64'] ) );
	}

	public function test_several_attachments_are_zipped_into_one() {
		$mail  = $this->map( array( 'attachments' => array( $this->file( 'a.txt', 'first' ), $this->file( 'b.csv', 'x,y' ) ) ) );
		$block = $mail->fields['attachment'];
		$this->assertSame( 'application/zip', $block['mime_type'] );
		$this->assertSame( 'attachments.zip', $block['file_name'] );
		$this->assertSame( array( 'a.txt' => 'first', 'b.csv' => 'x,y' ), $this->unzip( base64_decode( $block['b64'] ) ) );
	}

	public function test_missing_attachment_is_an_error() {
		$result = Message_Mapper::map( array( 'to' => 'a@example.com', 'attachments' => array( '/nonexistent/file.txt' ) ) );
		$this->assertInstanceOf( \WP_Error::class, $result );
		$this->assertStringContainsString( '/nonexistent/file.txt', $result->get_error_message() );
	}

	public function test_no_recipient_is_an_error() {
		$this->assertInstanceOf( \WP_Error::class, Message_Mapper::map( array( 'to' => '' ) ) );
	}

	/**
	 * @param array<string, mixed> $atts wp_mail arguments over defaults.
	 */
	private function map( array $atts ) {
		$mail = Message_Mapper::map(
			$atts + array(
				'to'      => 'to@example.com',
				'subject' => 'Subject',
				'message' => 'Body',
				'headers' => '',
			)
		);
		$this->assertInstanceOf( Outgoing_Mail::class, $mail );
		return $mail;
	}

	/**
	 * @param string $name    File name.
	 * @param string $content Content.
	 */
	private function file( $name, $content ) {
		$dir = get_temp_dir() . 'sitebeam-phpunit-' . wp_generate_password( 6, false );
		wp_mkdir_p( $dir );
		$path = $dir . '/' . $name;
		file_put_contents( $path, $content ); // phpcs:ignore -- test fixture.
		$this->files[] = $path;
		return $path;
	}

	/**
	 * @param string $bytes Zip archive.
	 * @return array<string, string> Name => content.
	 */
	private function unzip( $bytes ) {
		$path = $this->file( 'check.zip', $bytes );
		$zip  = new ZipArchive();
		$this->assertTrue( $zip->open( $path ) );
		$files = array();
		for ( $i = 0; $i < $zip->numFiles; $i++ ) {
			$name           = $zip->getNameIndex( $i );
			$files[ $name ] = $zip->getFromIndex( $i );
		}
		$zip->close();
		ksort( $files );
		return $files;
	}
}
