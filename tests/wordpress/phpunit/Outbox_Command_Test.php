<?php
/**
 * `wp sitebeam outbox list|run` as WP-CLI calls it (its two output functions stood in for: WP-CLI is not in Debian).
 *
 * @package Sitebeam\Tests
 */

namespace Sitebeam\Tests;

use PHPUnit\Framework\Attributes\PreserveGlobalState;
use PHPUnit\Framework\Attributes\RunInSeparateProcess;
use Sitebeam\Cli\Outbox_Command;
use Sitebeam\Mail\Outbox;

final class Outbox_Command_Test extends Plugin_Test_Case {

	/**
	 * @runInSeparateProcess
	 * @preserveGlobalState disabled
	 */
	#[RunInSeparateProcess]
	#[PreserveGlobalState( false )]
	public function test_list_shows_the_waiting_mail_and_run_now_sends_it() {
		require_once __DIR__ . '/support/wp-cli-stand-in.php';
		$this->set_settings( array( 'api_url' => 'http://127.0.0.1:9' ) );
		try {
			$this->assertTrue( wp_mail( 'ann@example.com', 'CLI one', 'x' ) );
			$this->assertTrue( wp_mail( 'bob@example.com', 'CLI two', 'x' ) );
			$command = new Outbox_Command();
			$command->list_( array(), array( 'format' => 'json' ) );
			$listed = json_decode( \WP_CLI::$said[0][1], true );
			$this->assertSame( array( 'ann@example.com', 'bob@example.com' ), array_column( $listed['items'], 'recipient' ) );
			$this->assertContains( 'last_error', $listed['fields'] );

			$this->set_settings( array( 'api_url' => Stub::url() ) );
			$command->run( array(), array( 'now' => true ) );
			$this->assertSame( array( 'success', 'Sent 2, given up 0; 0 waiting, 0 failed.' ), \WP_CLI::$said[1] );
			$this->assertSame( array( 'ann@example.com', 'bob@example.com' ), array_column( Stub::messages(), 'to' ) );
			$this->assertSame( array(), Outbox::rows() );
		} finally {
			self::empty_outbox();
		}
	}
}
