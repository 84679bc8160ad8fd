<?php
/**
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use PHPUnit\Framework\TestCase;
use Sitebeam\Mail\Mail_Headers;

final class Mail_Headers_Test extends TestCase {

	public function test_string_headers_with_crlf_folding_and_any_case() {
		$headers = Mail_Headers::parse( "FROM: Site <site@example.test>\r\ncc: a@example.test,\r\n b@example.test\r\nBCC: hidden@example.test\r\nReply-To: reply@example.test\r\nContent-Type: text/html; charset=\"ISO-8859-1\"\r\nX-Custom: ignored" );
		$this->assertSame( 'Site <site@example.test>', $headers->from );
		$this->assertSame( array( 'a@example.test, b@example.test' ), $headers->cc );
		$this->assertSame( array( 'hidden@example.test' ), $headers->bcc );
		$this->assertSame( array( 'reply@example.test' ), $headers->reply_to );
		$this->assertSame( 'text/html', $headers->content_type );
		$this->assertSame( 'ISO-8859-1', $headers->charset );
	}

	public function test_array_headers_accumulate_repeated_cc() {
		$headers = Mail_Headers::parse( array( 'Cc: one@example.test', 'Cc: two@example.test', 'not a header' ) );
		$this->assertSame( array( 'one@example.test', 'two@example.test' ), $headers->cc );
		$this->assertSame( '', $headers->content_type );
	}

	public function test_without_recipients_keeps_every_other_header() {
		$this->assertSame(
			array( 'From: site@example.test', 'Content-Type: text/html' ),
			Mail_Headers::without_recipients( "From: site@example.test\nCc: a@example.test\nbcc: b@example.test\nContent-Type: text/html" )
		);
	}
}
